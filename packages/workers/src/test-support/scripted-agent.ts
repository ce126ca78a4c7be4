import {
  type AgentMessage,
  defineTool,
  MemorySessionStore,
  type SessionAgentOptions,
  type SessionStore,
  newSessionState,
} from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { type MockTurn, mock } from '@agent-core/provider-mock';
import { z } from 'zod';
import { RunWorker } from '../run-worker.js';
import type { RunWorkerOptions } from '../run-worker-options.js';

/** Every execution of the `note` tool, in order: what a test checks "ran once" against. */
export interface Executions {
  notes: string[];
}

/**
 * A model that answers a prompt by calling `note` with the prompt's text,
 * then says `done: <text>`: the same reply whatever process asks, read from
 * the history alone, so a run continued elsewhere goes on as it would have.
 */
export function noteModel(options: { latencyMs?: number; failWith?: MockTurn['error'] } = {}) {
  return mock({
    latencyMs: options.latencyMs,
    turns: (request) => {
      if (options.failWith !== undefined) return { error: options.failWith };
      const last = request.messages.at(-1) as AgentMessage & { role: string };
      if (last.role === 'user') {
        const text = typeof last.content === 'string' ? last.content : 'blocks';
        return { toolCalls: [{ name: 'note', input: { text } }] };
      }
      const result = last as { content?: unknown };
      return { text: `done: ${typeof result.content === 'string' ? result.content : 'result'}` };
    },
  });
}

/** The `note` tool: records its text in `executions` (after `delayMs`), and needs approval with `risk: 'write'` under an asking policy. */
export function noteTool(executions: Executions, delayMs = 0) {
  return defineTool({
    name: 'note',
    description: 'Writes a note',
    parameters: z.object({ text: z.string() }),
    risk: 'write',
    execute: async ({ text }, context) => {
      if (delayMs > 0)
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, delayMs);
          context.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(context.signal.reason);
          });
        });
      executions.notes.push(text);
      return `noted ${text}`;
    },
  });
}

/** Agent options of a session: the note model and tool on the step orchestrator. */
/** How the scripted agent behaves: its model's latency and error, its tool's delay, and whether the tool asks first. */
export interface NoteAgentOptions {
  latencyMs?: number;
  toolDelayMs?: number;
  ask?: boolean;
  failWith?: MockTurn['error'];
}

export function noteAgent(executions: Executions, options: NoteAgentOptions = {}): SessionAgentOptions {
  return {
    provider: noteModel(options),
    model: 'mock',
    tools: [noteTool(executions, options.toolDelayMs)],
    orchestrator: stepOrchestrator,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    ...(options.ask === true ? { policy: { risk: { write: 'ask' }, otherwise: 'allow' } } : {}),
  };
}

/** A memory store holding empty sessions with these ids. */
export async function storeWith(...ids: string[]): Promise<SessionStore> {
  const store = new MemorySessionStore();
  for (const id of ids) await store.save(newSessionState({ id }), { expectedVersion: 0 });
  return store;
}

/** A worker on `schema` of the server at `connectionString` whose runs use `noteAgent(executions, agent)`; `options` add to it. */
export function noteWorker(
  connectionString: string,
  schema: string,
  store: SessionStore,
  executions: Executions,
  agent: NoteAgentOptions = {},
  options: Partial<RunWorkerOptions> = {},
): RunWorker {
  return new RunWorker({
    connectionString,
    schema,
    store,
    agentOptions: () => noteAgent(executions, agent),
    ...options,
  });
}
