import { describe, expect, it } from 'vitest';
import type { HeldToolResult, PendingApproval } from '../governance/pending-approval.js';
import { historyProblems } from '../messages/history-problems.js';
import type { AgentMessage, ToolResultMessage } from '../messages/messages.js';
import { repairInterrupted, replayRecords } from './restore-session.js';
import type { SessionEvent, SessionLogRecord } from './session-event.js';
import { newSessionState } from './session-state.js';

const at = '2026-11-26T09:00:00.000Z';

/** A history whose last response asked for `ids`, in that order, none answered yet. */
function askedFor(...ids: string[]): AgentMessage[] {
  return [
    { role: 'user', content: 'go' },
    {
      role: 'assistant',
      content: ids.map((id) => ({ type: 'toolCall' as const, id, name: `tool_${id}`, input: { id } })),
      stopReason: 'tool_use',
    },
  ];
}

function approval(toolCallId: string, extra: Partial<PendingApproval> = {}): PendingApproval {
  return {
    toolCallId,
    toolName: `tool_${toolCallId}`,
    input: { id: toolCallId },
    inputHash: `hash-${toolCallId}`,
    risk: 'write',
    reason: 'the policy asks',
    agentPath: [],
    requestedAt: at,
    ...extra,
  };
}

/** A finished call's result, as a pause holds it. */
function finished(toolCallId: string): HeldToolResult {
  return {
    toolCallId,
    toolName: `tool_${toolCallId}`,
    content: `${toolCallId} done`,
    isError: false,
    durationMs: 3,
  };
}

/** The approval a subagent asked for inside call `a`, holding `held` for a later call of the batch. */
function pausedInA(held: HeldToolResult): PendingApproval {
  return approval('inner', {
    agentPath: ['child'],
    pausedCall: { toolCallId: 'a', toolName: 'tool_a', inputHash: 'hash-a', state: {} },
    heldResults: [held],
  });
}

/** A paused session resumed in a process that stopped while `started` ran. */
function crashedResume(messages: AgentMessage[], pending: PendingApproval[], started: string | undefined) {
  const state = newSessionState({ id: 's', messages });
  state.status = 'await_user';
  state.pendingApprovals = pending;
  const events: SessionEvent[] = [{ type: 'run_started', runId: 'r2', at }];
  if (started !== undefined)
    events.push({
      type: 'tool_started',
      toolCallId: started,
      toolName: `tool_${started}`,
      input: { id: started },
      at,
    });
  const records: SessionLogRecord[] = events.map((event, index) => ({
    seq: index + 1,
    operationId: `op${index}`,
    event,
  }));
  const restored = replayRecords(state, records);
  expect(repairInterrupted(restored)).toBe(true);
  const results = state.messages.filter((message) => message.role === 'toolResult') as ToolResultMessage[];
  return { state, results };
}

describe('repairInterrupted and the approvals a paused session kept', () => {
  it('drops the approval of a call the repair answered and keeps those still waiting', () => {
    const { state, results } = crashedResume(askedFor('a', 'b'), [approval('a'), approval('b')], 'a');
    expect(results.map((result) => result.toolCallId)).toEqual(['a']);
    expect(String(results[0]?.content)).toContain('outcome is unknown');
    expect(state.pendingApprovals.map((pending) => pending.toolCallId)).toEqual(['b']);
    // `b` still waits for a decision: the session is paused for its user, and an approvals inbox lists it.
    expect(state.status).toBe('await_user');
    expect(historyProblems(state.messages, { allowPendingCalls: true })).toEqual([]);
  });

  it('a resume stopped before it decided anything leaves the session waiting for its user, as it was', () => {
    const { state, results } = crashedResume(askedFor('a'), [approval('a')], undefined);
    expect(results).toEqual([]);
    expect(state.status).toBe('await_user');
    expect(state.pendingApprovals).toEqual([approval('a')]);
  });

  it('appends a result a pause held for the call right after the repaired one, instead of leaving it to run again', () => {
    const held = finished('b');
    const paused = pausedInA(held);
    const { state, results } = crashedResume(askedFor('a', 'b', 'c'), [paused], 'a');
    expect(results.map((result) => [result.toolCallId, result.isError, result.content])).toEqual([
      ['a', true, expect.stringContaining('outcome is unknown')],
      ['b', false, 'b done'],
    ]);
    // `c` never ran: it is left for resume(), and nothing is waiting for a decision any more.
    expect(state.pendingApprovals).toEqual([]);
    expect(state.status).toBe('interrupted');
    expect(historyProblems([...state.messages, ...closing('c')])).toEqual([]);
  });

  it("moves results held behind a call still waiting onto that call's approval", () => {
    const held = finished('c');
    const paused = pausedInA(held);
    const { state, results } = crashedResume(askedFor('a', 'b', 'c'), [paused, approval('b')], 'a');
    expect(results.map((result) => result.toolCallId)).toEqual(['a']);
    expect(state.pendingApprovals).toEqual([{ ...approval('b'), heldResults: [held] }]);
  });
});

/** Results for calls left for resume(), so a history can be checked whole. */
function closing(...ids: string[]): ToolResultMessage[] {
  return ids.map((id) => ({
    role: 'toolResult',
    toolCallId: id,
    toolName: `tool_${id}`,
    content: 'ok',
    isError: false,
  }));
}
