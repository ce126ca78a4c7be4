import type { PendingApproval } from '../governance/pending-approval.js';
import type { AgentMessage } from '../messages/messages.js';
import type { SessionEvent } from '../session/session-event.js';
import { newSessionState, type SessionState } from '../session/session-state.js';

/**
 * One message of every kind a history holds: text and image user content,
 * thinking with a signature and redacted thinking, tool calls, text and image
 * results, an error result, an aborted partial answer, an app-defined message
 * and a field no version knows yet. A store must give all of it back as it was.
 */
export function everyMessageKind(): AgentMessage[] {
  return [
    { role: 'user', content: 'Plain text with unicode: é ✓ 🙂 and "quotes"\nand a newline' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this image?' },
        {
          type: 'image',
          data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk',
          mimeType: 'image/png',
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user wants a description.', signature: 'sig-EqQBCkYIBRgCKkD' },
        { type: 'thinking', thinking: '', signature: 'opaque', redacted: true },
        { type: 'text', text: 'Let me look.' },
        {
          type: 'toolCall',
          id: 'call_1',
          name: 'describe',
          input: { detail: 'high', nested: { list: [1, 'two', null] } },
        },
        { type: 'toolCall', id: 'call_2', name: 'fail', input: {} },
      ],
      stopReason: 'tool_use',
      usage: { input: 120, output: 40, cacheRead: 100, cacheWrite: 0, cost: 0.0012 },
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
    },
    {
      role: 'toolResult',
      toolCallId: 'call_1',
      toolName: 'describe',
      content: [
        { type: 'text', text: 'A cat.' },
        { type: 'image', data: 'R0lGODlhAQABAAAAACw=', mimeType: 'image/gif' },
      ],
      isError: false,
    },
    {
      role: 'toolResult',
      toolCallId: 'call_2',
      toolName: 'fail',
      content: 'Tool failed: boom',
      isError: true,
    },
    { role: 'assistant', content: [{ type: 'text', text: 'A cat, partly' }], stopReason: 'aborted' },
    { role: 'note', text: 'an app-defined message', tags: ['kept'] } as unknown as AgentMessage,
    {
      role: 'assistant',
      content: [{ type: 'text', text: 'Done.' }],
      stopReason: 'end_turn',
      futureField: { kept: true },
    } as unknown as AgentMessage,
  ];
}

/** A session state holding every message kind, metadata, a trace and a pending approval. */
export function sampleSessionState(id: string, updatedAt = '2026-01-01T00:00:00.000Z'): SessionState {
  const state = newSessionState({ id, metadata: { title: 'sample', nested: { count: 3, list: ['a'] } } });
  state.messages = everyMessageKind();
  state.createdAt = '2026-01-01T00:00:00.000Z';
  state.updatedAt = updatedAt;
  state.usage = { input: 120, output: 40, cacheRead: 100, cacheWrite: 0, cost: 0.0012 };
  state.trace = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
  state.pendingApprovals = [samplePendingApproval('call_9')];
  return state;
}

/** A pending approval of a `write` call, as a paused run stores it. */
export function samplePendingApproval(toolCallId: string): PendingApproval {
  return {
    toolCallId,
    toolName: 'write',
    input: { path: 'a.txt' },
    inputHash: 'abc123',
    risk: 'write',
    reason: 'policy asks for writes',
    agentPath: [],
    requestedAt: '2026-01-01T00:00:01.000Z',
  };
}

/** Log entries of one run with a tool call, for append and read checks. */
export function sampleEvents(label: string): SessionEvent[] {
  return [
    { type: 'run_started', runId: `run-${label}`, at: '2026-01-01T00:00:00.000Z' },
    { type: 'message', message: { role: 'user', content: `prompt ${label}` } },
    {
      type: 'tool_started',
      toolCallId: `call-${label}`,
      toolName: 'add',
      input: { a: 1 },
      at: '2026-01-01T00:00:00.000Z',
    },
    {
      type: 'run_ended',
      runId: `run-${label}`,
      reason: 'completed',
      usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
      at: '2026-01-01T00:00:00.000Z',
    },
  ];
}
