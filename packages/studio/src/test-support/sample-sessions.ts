import {
  defineTool,
  type SessionAgentOptions,
  SessionManager,
  type SessionStore,
  type Tool,
} from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { z } from 'zod';

/** What the sample's `write_note` tool did, in call order: the test's proof of how often it ran. */
export type NoteLog = string[];

/** A tool of risk `write` that the samples' policy asks about; it records each run in `log`. */
export function noteTool(log: NoteLog): Tool {
  return defineTool({
    name: 'edit_file',
    description: 'Edits a note',
    parameters: z.object({ path: z.string(), old_string: z.string(), new_string: z.string() }),
    risk: 'write',
    execute: ({ path, new_string: text }) => {
      log.push(`${path}:${text}`);
      return `Edited ${path}.`;
    },
  });
}

/** Agent options for a session of the samples: a scripted model that edits a note, then answers. */
export function sampleAgentOptions(log: NoteLog): SessionAgentOptions {
  return {
    provider: mock({
      // Answers from the history, so a run resumed in another process (a new provider) goes on where it paused.
      turns: (request) =>
        request.messages.at(-1)?.role === 'toolResult'
          ? { text: 'Done: **notes.md** has a second line.' }
          : {
              thinking: 'The note needs a second line.',
              toolCalls: [
                {
                  name: 'edit_file',
                  id: 'call-edit',
                  input: { path: 'notes.md', old_string: 'one\n', new_string: 'one\ntwo\n' },
                },
              ],
            },
      chunkSize: 0,
    }),
    model: 'mock',
    orchestrator: stepOrchestrator,
    tools: [noteTool(log)],
    policy: { tools: { edit_file: 'ask' } },
  };
}

/**
 * Stores three sessions: one answered in markdown, one paused with a call
 * waiting for approval (an edit, so the inbox shows a diff), and one whose
 * run failed. Returns their ids.
 */
export async function storeSampleSessions(
  store: SessionStore,
): Promise<{ answered: string; waiting: string; failed: string }> {
  const unused: NoteLog = [];
  const answeredManager = new SessionManager({
    store,
    agentOptions: () => ({
      provider: mock({
        turns: [
          { text: '# Plan\n\n- read the file\n- **answer**\n\n`code` and [a link](https://example.com)' },
        ],
        chunkSize: 0,
      }),
      model: 'mock',
      orchestrator: stepOrchestrator,
    }),
  });
  const answered = await answeredManager.create({ id: 'sample-answered' });
  await answered.prompt('Make a plan').result();
  const waitingManager = new SessionManager({ store, agentOptions: () => sampleAgentOptions(unused) });
  const waiting = await waitingManager.create({ id: 'sample-waiting' });
  await waiting.prompt('Add a line to the notes').result();
  const failedManager = new SessionManager({
    store,
    agentOptions: () => ({
      provider: mock({
        turns: [{ error: { kind: 'invalid_request', message: 'the model refused the request' } }],
        chunkSize: 0,
      }),
      model: 'mock',
      orchestrator: stepOrchestrator,
    }),
  });
  const failed = await failedManager.create({ id: 'sample-failed' });
  await failed.prompt('This one fails').result();
  return { answered: answered.id, waiting: waiting.id, failed: failed.id };
}

/** Runs the waiting call's resume in "another process" (a worker): its own manager and tool log. */
export async function resumeElsewhere(store: SessionStore, log: NoteLog): Promise<void> {
  const session = await new SessionManager({ store, agentOptions: () => sampleAgentOptions(log) }).get(
    'sample-waiting',
  );
  const waiting = session.agent.pendingApprovals[0];
  await session
    .resume({
      decisions: [{ toolCallId: 'call-edit', inputHash: waiting?.inputHash ?? '', decision: 'allow' }],
    })
    .result();
}
