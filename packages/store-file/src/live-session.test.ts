import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  historyProblems,
  type Provider,
  SessionBusyError,
  SessionManager,
  type ToolResultMessage,
} from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import { childInSlowCall } from './test-support/running-child.js';

const _fixtures = join(import.meta.dirname, '__fixtures__');

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** This process's side: any model request or tool run here would be a second run of a live session. */
function manager(root: string, ran: string[]): SessionManager {
  const provider: Provider = {
    name: 'scripted',
    // biome-ignore lint/correctness/useYield: it must never be called; it fails the run if it is.
    async *stream() {
      ran.push('model');
      throw new Error('the model was called in a second process');
    },
  };
  return new SessionManager({
    store: new FileSessionStore({ root: join(root, 'sessions') }),
    agentOptions: () => ({
      provider,
      model: 'scripted',
      orchestrator: stepOrchestrator,
      tools: [
        {
          name: 'work',
          description: 'does one step of work',
          parameters: { type: 'object', properties: { step: { type: 'number' } }, required: ['step'] },
          execute: () => {
            ran.push('work');
            return 'ran here';
          },
        },
      ],
    }),
  });
}

describe('a session another live process is running', () => {
  it('is loaded as it is, its prompt and removal refused, never repaired; once that process is killed it is repaired', async () => {
    const root = await mkdtemp(join(tmpdir(), 'store-file-live-'));
    const child = await childInSlowCall(root);
    const log = join(root, 'sessions', 'killme', 'events.jsonl');
    try {
      const before = await readFile(log, 'utf8');
      const ran: string[] = [];
      const here = manager(root, ran);
      const seen = await here.get('killme');
      expect(seen.status).toBe('running');
      const refused = await seen.prompt('are you there?').result();
      expect(refused.terminateReason).toBe('error');
      expect(refused.error).toBeInstanceOf(SessionBusyError);
      expect((refused.error as SessionBusyError).holder).toContain(`process ${child.pid}`);
      expect(ran).toEqual([]);
      // Nor can this process delete it under the one that runs it.
      await expect(here.remove('killme')).rejects.toBeInstanceOf(SessionBusyError);
      // Nothing of this process reached the live session's log.
      expect(await readFile(log, 'utf8')).toBe(before);
    } finally {
      await killed(child);
    }

    const ran: string[] = [];
    const restored = await manager(root, ran).get('killme');
    expect(restored.status).toBe('interrupted');
    expect(historyProblems(restored.messages)).toEqual([]);
    const results = restored.messages.filter(
      (message) => message.role === 'toolResult',
    ) as ToolResultMessage[];
    expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
      ['w1', false],
      ['w2', true],
    ]);
    expect(ran).toEqual([]);
    expect(await readFile(join(root, 'ran.txt'), 'utf8')).toBe('step 1\nstep 2\n');
  }, 30_000);
});
