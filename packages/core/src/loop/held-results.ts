import type { ToolCallEnd } from '../events/run-events.js';
import type { HeldToolResult, PendingApproval } from '../governance/pending-approval.js';
import type { ToolCallBlock } from '../messages/messages.js';
import type { PendingCalls } from './pending-calls.js';
import type { RunState } from './run-state.js';

// In parallel mode a call can finish while an earlier call of its batch pauses inside (a
// subagent waiting for approval). The history takes results in call order, so its result
// cannot be appended yet; it must not be lost either, or the call would run again on resume.
// The run holds it (`RunState.held`), a pause stores it with its approvals as plain JSON, and
// whichever run answers the call next appends it instead of running or skipping the call.

/**
 * The results the agent's pending approvals hold for calls still unanswered,
 * by call id; undefined (the usual case) when they hold none.
 */
export function heldResults(
  approvals: readonly PendingApproval[],
  pending: PendingCalls,
): Map<string, ToolCallEnd> | undefined {
  let held: Map<string, ToolCallEnd> | undefined;
  for (const approval of approvals) {
    const results = approval.heldResults;
    if (results === undefined) continue;
    for (const kept of results) {
      const call = pending.get(kept.toolCallId);
      if (call === undefined || call.name !== kept.toolName || held?.has(call.id) === true) continue;
      (held ??= new Map()).set(call.id, {
        call,
        content: kept.content,
        isError: kept.isError,
        durationMs: kept.durationMs,
      });
    }
  }
  return held;
}

/** Keeps a finished call's result until the calls before it have theirs. */
export function holdResult(state: RunState, end: ToolCallEnd): void {
  (state.held ??= new Map()).set(end.call.id, end);
}

/** Takes out the result held for a call, if a pause kept one. */
export function takeHeld(state: RunState, toolCallId: string): ToolCallEnd | undefined {
  const held = state.held;
  if (held === undefined) return undefined;
  const end = held.get(toolCallId);
  if (end !== undefined) held.delete(toolCallId);
  return end;
}

/**
 * The approvals a paused run ends with (or a repaired session keeps), those of
 * the first unanswered call that has any carrying every result still held for
 * `calls` (the unanswered calls, in call order), and no other approval
 * carrying any. `undefined` when results are held but no unanswered call has
 * an approval to carry them: the caller appends them instead.
 */
export function withHeldResults(
  calls: readonly ToolCallBlock[],
  held: ReadonlyMap<string, ToolCallEnd> | undefined,
  approvals: readonly PendingApproval[],
): PendingApproval[] | undefined {
  const results: HeldToolResult[] = [];
  let carrier: string | undefined;
  for (const call of calls) {
    const end = held?.get(call.id);
    if (end !== undefined) {
      results.push({
        toolCallId: call.id,
        toolName: call.name,
        content: end.content,
        isError: end.isError,
        durationMs: end.durationMs,
      });
    } else if (carrier === undefined && approvals.some((approval) => callOf(approval) === call.id)) {
      carrier = call.id;
    }
  }
  if (results.length > 0 && carrier === undefined) return undefined;
  return approvals.map((approval) => {
    const { heldResults: _earlier, ...rest } = approval;
    return results.length > 0 && callOf(approval) === carrier ? { ...rest, heldResults: results } : rest;
  });
}

/** The call of this agent's history an approval belongs to: its own, or the one it paused inside. */
export function callOf(approval: PendingApproval): string {
  return approval.pausedCall?.toolCallId ?? approval.toolCallId;
}
