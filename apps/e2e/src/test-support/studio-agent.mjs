// What the studio's browser tests share between their processes: the store a process opens from its
// command line, and the agent of the notes sessions, whose model answers from the history (so a run
// resumed in any process goes on where it paused) and whose edit tool appends a line to a file: the
// test's proof of how many times it ran.
import { appendFileSync } from 'node:fs';
import { defineTool, silentLogger } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';
import { FileSessionStore } from '@agent-core/store-file';
import { PostgresSessionStore } from '@agent-core/store-postgres';
import { z } from 'zod';

/** `file:<folder>` or `pg:<schema>:<connection string>`. */
export function openStore(where) {
  if (where.startsWith('file:')) return new FileSessionStore({ root: where.slice(5), logger: silentLogger });
  const [, schema, ...url] = where.split(':');
  return new PostgresSessionStore({ connectionString: url.join(':'), schema, leaseDurationMs: 5_000 });
}

/** The agent options of a notes session; `latencyMs` slows each model call (a run another process watches). */
export function notesAgent(notesFile, latencyMs = 0) {
  const editNote = defineTool({
    name: 'edit_file',
    description: 'Edits the notes',
    risk: 'write',
    parameters: z.object({ path: z.string(), old_string: z.string(), new_string: z.string() }),
    execute: ({ new_string: text }) => {
      appendFileSync(notesFile, `${text.trim().split('\n').at(-1)}\n`);
      return 'Edited notes.md.';
    },
  });
  const look = defineTool({
    name: 'look',
    description: 'Looks at the notes',
    risk: 'read',
    parameters: z.object({ step: z.number() }),
    execute: ({ step }) => `step ${step}: the notes have ${step} lines`,
  });
  return {
    provider: mock({
      chunkSize: 0,
      latencyMs,
      turns: (request) => {
        const prompt = String(request.messages.find((message) => message.role === 'user')?.content ?? '');
        const results = request.messages.filter((message) => message.role === 'toolResult').length;
        const slow = /^slow (\d+)/.exec(prompt);
        if (slow !== null)
          return results < Number(slow[1])
            ? { toolCalls: [{ name: 'look', id: `look-${results}`, input: { step: results + 1 } }] }
            : { text: `Looked ${results} times.` };
        if (request.messages.at(-1)?.role === 'toolResult')
          return {
            text: 'Done: **notes.md** has the new line.',
            usage: { input: 120, output: 12, cacheRead: 0, cacheWrite: 0, cost: 0.0012 },
          };
        const line = prompt.replace(/^Add the line /, '');
        return {
          thinking: 'The notes need one more line.',
          toolCalls: [
            {
              name: 'edit_file',
              id: 'call-edit',
              input: { path: 'notes.md', old_string: 'one\n', new_string: `one\n${line}\n` },
            },
          ],
          usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, cost: 0.001 },
        };
      },
    }),
    model: 'mock-model',
    orchestrator: agentic(),
    tools: [editNote, look],
    policy: { extends: 'standard', tools: { edit_file: 'ask', look: 'allow' } },
  };
}
