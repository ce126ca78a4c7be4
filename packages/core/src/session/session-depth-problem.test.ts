import { describe, expect, it } from 'vitest';
import { AgentError } from '../errors/agent-error.js';
import { maxToolInputDepth } from '../loop/tool-input-problem.js';
import type { AgentMessage, AssistantMessage } from '../messages/messages.js';
import type { Provider } from '../provider/provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { defineTool } from '../tool/define-tool.js';
import { MemorySessionStore } from './memory-session-store.js';
import { checkSessionEvents, checkSessionState, parseSessionState } from './parse-session-state.js';
import { restoreSession } from './restore-session.js';
import {
  maxSessionMetadataDepth,
  maxSessionPartDepth,
  sessionDepthProblem,
} from './session-depth-problem.js';
import type { SessionLogRecord } from './session-event.js';
import { SessionManager } from './session-manager.js';
import { newSessionState } from './session-state.js';
import type { SessionStore } from './session-store.js';

/** An object nested exactly `levels` levels deep (`{}` is one level). */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < levels; level++) value = { a: value };
  return value;
}

async function rejection(action: () => unknown): Promise<AgentError> {
  try {
    await action();
  } catch (error) {
    if (AgentError.isInstance(error)) return error;
    throw new Error(`expected an AgentError, got ${String(error)}`);
  }
  throw new Error('expected a rejection');
}

const reply = (message: AssistantMessage): Provider => ({
  name: 'scripted',
  async *stream() {
    yield { type: 'done', message };
  },
});

describe('session depth limits', () => {
  it('metadata has the limit of a tool call input; every other part four times that', () => {
    expect(maxSessionMetadataDepth).toBe(maxToolInputDepth);
    expect(maxSessionPartDepth).toBe(4 * maxToolInputDepth);
    const at = newSessionState({ metadata: nested(maxSessionMetadataDepth) });
    expect(sessionDepthProblem(at, { metadata: true })).toBeUndefined();
    const past = newSessionState({ metadata: nested(maxSessionMetadataDepth + 1) });
    expect(sessionDepthProblem(past, { metadata: true })).toMatchObject({ field: 'metadata', limit: 64 });
    // Without the option, metadata is a part like any other (a log entry's field named metadata).
    expect(sessionDepthProblem(past)).toBeUndefined();
    const message = { role: 'note', data: nested(maxSessionPartDepth) } as unknown as AgentMessage;
    expect(sessionDepthProblem(newSessionState({ messages: [message] }))).toMatchObject({
      field: 'messages.0',
      limit: 256,
    });
    expect(sessionDepthProblem({ usage: nested(maxSessionPartDepth + 1) })).toMatchObject({ field: 'usage' });
    // A million levels are found without walking them, and without overflowing the stack.
    expect(sessionDepthProblem({ message: nested(1_000_000) })).toMatchObject({ field: 'message' });
  });

  it('a state the loop makes with tool inputs at their limit, also inside a subagent pause, is stored and read back', async () => {
    const input = nested(maxToolInputDepth);
    const call: AgentMessage = {
      role: 'assistant',
      content: [{ type: 'toolCall', id: 'call_1', name: 'lead', input }],
      stopReason: 'tool_use',
    };
    const approval = {
      toolCallId: 'inner_1',
      toolName: 'write',
      input,
      inputHash: 'h',
      risk: 'write' as const,
      reason: 'policy',
      agentPath: ['lead', 'researcher'],
      requestedAt: '2026-01-01T00:00:00.000Z',
    };
    // Three subagents deep (asTool's default maxDepth): each pause holds the next one's messages and approvals.
    let pausedState: unknown = { messages: [call], pendingApprovals: [approval], alwaysAllowedTools: [] };
    for (let level = 0; level < 3; level++)
      pausedState = {
        messages: [call],
        pendingApprovals: [
          {
            ...approval,
            pausedCall: { toolCallId: 'call_1', toolName: 'lead', inputHash: 'h', state: pausedState },
          },
        ],
        alwaysAllowedTools: [],
      };
    const state = newSessionState({ id: 'deep-but-valid', metadata: input, messages: [call] });
    state.pendingApprovals = (
      pausedState as { pendingApprovals: typeof state.pendingApprovals }
    ).pendingApprovals;
    state.status = 'await_user';
    const store = new MemorySessionStore();
    await store.save(state, { expectedVersion: 0 });
    expect(await parseSessionState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect((await store.load('deep-but-valid')).pendingApprovals).toEqual(state.pendingApprovals);
  });

  it('checkSessionState refuses metadata and parts past their limits, naming the field and the limit', async () => {
    const metadata = await rejection(() =>
      checkSessionState(newSessionState({ id: 's', metadata: nested(65) })),
    );
    expect(metadata).toMatchObject({ code: 'invalid_session_state', field: 'metadata', sessionId: 's' });
    expect(metadata.message).toContain("field 'metadata': it is nested more than 64 levels deep");
    const state = newSessionState({ id: 's' });
    state.pendingApprovals = [{ input: nested(maxSessionPartDepth) } as never];
    const approval = await rejection(() => checkSessionState(state));
    expect(approval).toMatchObject({ field: 'pendingApprovals.0' });
    expect(approval.message).toContain('more than 256 levels deep');
  });

  it('parseSessionState reads data nested past the limits as SessionCorruptError, never a RangeError', async () => {
    for (const levels of [65, 100_000]) {
      const raw = JSON.parse(JSON.stringify(newSessionState({ id: 's' })));
      raw.metadata = nested(levels);
      const error = await rejection(() => parseSessionState(raw, { source: 'the test row' }));
      expect(error).toMatchObject({ code: 'session_corrupt', field: 'metadata', source: 'the test row' });
      expect(error.message).toMatch(/nested more than 64 levels deep.*no agent-core wrote it/);
    }
    const raw = JSON.parse(JSON.stringify(newSessionState({ id: 's' })));
    raw.messages = [
      { role: 'user', content: 'hi' },
      { role: 'note', data: nested(100_000) },
    ];
    expect(await rejection(() => parseSessionState(raw))).toMatchObject({
      code: 'session_corrupt',
      field: 'messages.1',
    });
  });

  it('checkSessionEvents refuses entries that are not events or are nested too deep, naming the entry', () => {
    const deep = { type: 'message', message: { role: 'note', data: nested(100_000) } };
    const codeAndField = (entries: unknown) => {
      try {
        checkSessionEvents('s', entries as never);
      } catch (error) {
        return { code: (error as AgentError).code, field: (error as { field?: string }).field };
      }
      return undefined;
    };
    expect(codeAndField([{ type: 'run_started', runId: 'r', at: 'now' }, deep])).toEqual({
      code: 'invalid_session_state',
      field: 'entries.1.message',
    });
    expect(codeAndField([{ type: 'message', message: { role: 'user', content: 'hi' } }, 'text'])).toEqual({
      code: 'invalid_session_state',
      field: 'entries.1',
    });
    expect(codeAndField({ type: 'message' })).toEqual({ code: 'invalid_session_state', field: 'entries' });
    expect(codeAndField([{ type: 'message', message: { role: 'note', data: nested(255) } }])).toBeUndefined();
  });

  it('the memory store refuses such an append whole, and its log stays as it was', async () => {
    const store = new MemorySessionStore();
    await store.save(newSessionState({ id: 'log' }), { expectedVersion: 0 });
    const error = await rejection(() =>
      store.append(
        'log',
        [
          { type: 'run_started', runId: 'r', at: '2026-01-01T00:00:00.000Z' },
          { type: 'message', message: { role: 'note', data: nested(100_000) } as unknown as AgentMessage },
        ],
        { operationId: 'op' },
      ),
    );
    expect(error).toMatchObject({ code: 'invalid_session_state', field: 'entries.1.message' });
    expect(await store.read('log')).toEqual([]);
  });

  it('a log record nested past the limit, as another program could store it, is SessionCorruptError on load', async () => {
    const store = new MemorySessionStore();
    await store.save(newSessionState({ id: 'planted' }), { expectedVersion: 0 });
    const planted: SessionLogRecord = {
      seq: 1,
      operationId: 'elsewhere',
      event: { type: 'message', message: { role: 'note', data: nested(100_000) } as unknown as AgentMessage },
    };
    // A store whose read hands over what it found, as a database row written by another program would be.
    const reading: SessionStore = {
      load: (id) => store.load(id),
      save: (state, options) => store.save(state, options),
      list: (options) => store.list(options),
      delete: (id) => store.delete(id),
      append: (id, entries, options) => store.append(id, entries, options),
      read: async () => [planted],
    };
    const error = await rejection(() => restoreSession(reading, 'planted'));
    expect(error).toMatchObject({ code: 'session_corrupt', field: 'message' });
    expect(error.message).toContain("the events log of session 'planted'");
    expect(error.message).toContain('record 1: it is nested more than 256 levels deep');
  });

  it('SessionManager.create with metadata nested past the limit is refused before its factory runs; the id stays free', async () => {
    const store = new MemorySessionStore();
    let factoryCalls = 0;
    const manager = new SessionManager({
      store,
      agentOptions: () => {
        factoryCalls++;
        return {
          provider: reply({
            role: 'assistant',
            content: [{ type: 'text', text: 'ok' }],
            stopReason: 'end_turn',
          }),
          model: 'm',
          orchestrator: stepOrchestrator,
          tools: [
            defineTool({
              name: 'noop',
              description: 'does nothing',
              parameters: { type: 'object' },
              execute: () => 'ok',
            }),
          ],
        };
      },
    });
    for (const levels of [65, 5_000, 100_000]) {
      const error = await rejection(() => manager.create({ id: 'deep', metadata: nested(levels) }));
      expect(error).toMatchObject({ code: 'invalid_session_state', field: 'metadata' });
    }
    expect(factoryCalls).toBe(0);
    expect((await store.list()).sessions).toEqual([]);
    const session = await manager.create({ id: 'deep', metadata: nested(64) });
    expect((await session.prompt('hi').result()).text).toBe('ok');
    expect(factoryCalls).toBe(1);
  });
});
