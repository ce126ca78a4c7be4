import type { AgentMessage, SessionEvent } from '@agent-core/core';

/** Messages and log entries for tests that write a session's log by hand. */
export const user = (text: string): AgentMessage => ({ role: 'user', content: text });

export const toolCall = (id: string): AgentMessage => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name: 'add', input: { a: 1 } }],
  stopReason: 'tool_use',
});

export const toolResult = (id: string): AgentMessage => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'add',
  content: 'ok',
  isError: false,
});

export const answer = (text: string): AgentMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  stopReason: 'end_turn',
});

/** One run as the journal logs it: its start, each message, its end (`completed`). */
export function runOf(
  runId: string,
  messages: readonly AgentMessage[],
  at = '2026-03-01T00:00:00.000Z',
): SessionEvent[] {
  return [
    { type: 'run_started', runId, at },
    ...messages.map((message): SessionEvent => ({ type: 'message', message })),
    {
      type: 'run_ended',
      runId,
      reason: 'completed',
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
      at,
    },
  ];
}

/** A prompt, a tool call, its result and an answer: six log records with the run's start and end. */
export const toolRun = (runId: string, callId: string): SessionEvent[] =>
  runOf(runId, [user(`prompt ${runId}`), toolCall(callId), toolResult(callId), answer(`done ${runId}`)]);
