import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { historyProblems, newSessionState, SessionManager } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import { recordingLogger } from './test-support/recording-logger.js';
import { useTemporaryRoots } from './test-support/temporary-roots.js';
import { fineProvider } from './test-support/running-child.js';

// Stored sessions whose files carry `__proto__`, `constructor` and `prototype` keys (in metadata, a
// tool call's input, a log record, a summary): they load as plain keys, a prompt runs, they are
// saved again as they were, and no prototype changes.

const temporaryRoot = useTemporaryRoots('store-file-hostile-');
afterEach(async () => {
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
});

const hostileJson =
  '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}';

const provider = fineProvider;

describe('stored sessions with prototype keys', () => {
  it('load, take a prompt and save again with the keys as plain data, polluting nothing', async () => {
    const root = await temporaryRoot();
    const store = new FileSessionStore({ root });
    await store.save(newSessionState({ id: 's' }), { expectedVersion: 0 });
    const snapshot = join(root, 's', 'session.json');
    // Written by hand, as a hostile or damaged file would be: JSON.stringify of an object cannot hold these keys.
    const text = (await readFile(snapshot, 'utf8')).replace('"metadata":{}', `"metadata":${hostileJson}`);
    expect(text).toContain('"metadata":{"__proto__"');
    await writeFile(snapshot, text);
    const call = `{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"t","input":${hostileJson}}],"stopReason":"tool_use"}`;
    const result = '{"role":"toolResult","toolCallId":"c1","toolName":"t","content":"ok","isError":false}';
    const records = [
      `{"seq":1,"operationId":"r1","event":{"type":"run_started","runId":"r1","at":"2026-03-01T00:00:00.000Z",${hostileJson.slice(1, -1)}}}`,
      `{"seq":2,"operationId":"r1","event":{"type":"message","message":{"role":"user","content":"hi"}}}`,
      `{"seq":3,"operationId":"r1","event":{"type":"message","message":${call}}}`,
      `{"seq":4,"operationId":"r1","event":{"type":"message","message":${result}}}`,
      `{"seq":5,"operationId":"r1","event":{"type":"run_ended","runId":"r1","reason":"completed","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0},"at":"2026-03-01T00:00:00.000Z"}}`,
    ];
    await writeFile(join(root, 's', 'events.jsonl'), `${records.join('\n')}\n`);
    await writeFile(join(root, 's', 'summary.json'), hostileJson);

    const reopened = new FileSessionStore({ root, logger: recordingLogger().logger });
    expect((await reopened.list()).sessions.map((summary) => summary.id)).toEqual(['s']);
    const manager = new SessionManager({
      store: reopened,
      agentOptions: () => ({ provider, model: 'm', orchestrator: stepOrchestrator }),
    });
    const session = await manager.get('s');
    // `constructor` and `prototype` stay as data; an own `__proto__` key may be dropped, never applied.
    expect(Object.keys(session.metadata)).toEqual(expect.arrayContaining(['constructor', 'prototype']));
    expect(Object.getPrototypeOf(session.metadata)).toBe(Object.prototype);
    expect((session.metadata as { polluted?: unknown }).polluted).toBeUndefined();
    const outcome = await session.prompt('go on').result();
    expect(outcome.terminateReason).toBe('completed');
    expect(historyProblems(outcome.messages)).toEqual([]);
    const input = (outcome.messages[1] as { content: { input: Record<string, unknown> }[] }).content[0]
      ?.input;
    expect(Object.keys(input ?? {})).toEqual(expect.arrayContaining(['constructor', 'prototype']));
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);

    // Saved again and loaded by another store, it is the same plain data.
    const state = await reopened.load('s');
    await reopened.save({ ...state, messages: [...outcome.messages] }, { expectedVersion: state.version });
    const again = await new FileSessionStore({ root }).load('s');
    expect(Object.keys(again.metadata)).toEqual(expect.arrayContaining(['constructor', 'prototype']));
    expect(historyProblems(again.messages)).toEqual([]);
  });
});
