import type { AgentResult, TerminateReason, ToolCallRecord } from '../result/agent-result.js';
import { AgentError, toAgentError } from '../errors/agent-error.js';
import type { ToolCallEnd } from '../events/run-events.js';
import { messageText } from '../messages/messages.js';
import type { RunEnd } from '../orchestrator/orchestrator.js';
import { runMetrics } from '../result/run-metrics.js';
import type { RunContext } from './run-context.js';
import type { PendingApproval } from '../governance/pending-approval.js';
import { appendResult } from './execute-tool.js';
import { takeHeld, withHeldResults } from './held-results.js';
import { roundMs } from './round-ms.js';
import { usageBreakdown } from './usage-breakdown.js';
import { orchestratorEditError, restoreView, viewChanged } from './history-view.js';

/**
 * Ends a run once its orchestrator has returned (or thrown, as an `error`
 * end): answers any tool call left without a result, builds the
 * `AgentResult` and emits `agent_end`.
 */
export function endRun(
  context: RunContext,
  orchestratorEnd: RunEnd,
  startedAt: number,
  parentSpanId?: string,
  forced = false,
): AgentResult {
  const state = context.state;
  let end = orchestratorEnd;
  // A subagent still winding down after an abort reports nothing past this point.
  state.runAccess?.close();
  const halt = forced ? undefined : state.halt;
  // Governance stopped the run (a pause or the guard): that, not the abort it used, is how the run ended.
  if (halt !== undefined) end = { reason: halt.reason, error: halt.error };
  // An abort that lands after the last check still ends the run as aborted; a run that stopped
  // for its timeout says so even when its orchestrator reports it as an abort.
  else if (state.stopCause !== undefined && (end.reason === 'completed' || end.reason === 'aborted')) {
    end = { ...end, reason: state.stopCause };
  }
  // A message pushed onto ctx.messages instead of appended would be lost without a word.
  if (!forced && viewChanged(state)) {
    restoreView(state);
    if (end.reason !== 'error') end = { reason: 'error', error: orchestratorEditError('run() returned') };
  }
  let pendingApprovals: PendingApproval[] | undefined;
  try {
    // A pause leaves the calls waiting for approval unanswered: `agent.resume()` runs them.
    if (end.reason !== 'await_user') context.closePending(endReasonText(end.reason, halt?.error));
    else pendingApprovals = pausedApprovals(context, halt?.pendingApprovals ?? []);
  } catch (error) {
    end = { reason: 'error', error: toAgentError(error) };
  }
  // A turn the orchestrator left open (an early return, a throw) ends before the run does.
  context.closeOpenTurn();

  const maxTurns = state.settings.maxTurns;
  let text = end.text;
  if (text === undefined) {
    if (end.reason === 'max_turns') {
      text = `Stopped after reaching the limit of ${maxTurns} turns (limits.maxTurns). The history is kept: prompt again to continue, or raise the limit.`;
    } else if (end.reason === 'max_tokens') {
      const used = state.usage.input + state.usage.output;
      // A stop before a call too large for what is left explains itself in its error.
      text =
        end.error?.message ??
        `Stopped after using ${used} tokens of the run's budget of ${state.shared.options.limits?.maxTokens} (limits.maxTokens). The history is kept: prompt again to continue, or raise the limit.`;
    } else {
      const last = state.lastAssistant;
      text = last === undefined ? '' : messageText(last);
    }
  }
  const durationMs = roundMs(performance.now() - startedAt);
  const toolCalls = state.toolCalls.map(toolCallRecord);
  const result: AgentResult = {
    text,
    messages: state.shared.messages,
    toolCalls,
    turns: state.turn,
    usage: state.usage,
    terminateReason: end.reason,
    durationMs,
    runId: state.runId,
    traceId: state.traceId,
    spanId: state.spanId,
    metrics: runMetrics({
      turns: state.turn,
      modelCalls: state.modelCalls,
      retries: state.retries,
      fallbacks: state.fallbacks,
      toolCalls,
      usage: state.usage,
      timeToFirstTokenMs: state.timeToFirstTokenMs,
      durationMs,
    }),
  };
  if (parentSpanId !== undefined) result.parentSpanId = parentSpanId;
  if (end.reason === 'error') {
    result.error = end.error ?? new AgentError('run_failed', 'The run ended with an error.');
  } else if (end.error !== undefined) {
    result.error = end.error;
  }
  if (state.usageByAgent !== undefined) {
    result.usageByAgent = usageBreakdown(
      state.shared.options.name ?? 'agent',
      state.usage,
      state.usageByAgent,
    );
  }
  if (end.output !== undefined) result.output = end.output;
  if (end.reason === 'await_user') {
    result.pendingApprovals = pendingApprovals ?? [];
    if (state.orchestratorState !== undefined) result.orchestratorState = state.orchestratorState;
  }
  if (end.outputValid !== undefined) result.outputValid = end.outputValid;
  if (result.error !== undefined && end.reason === 'error') {
    context.deliver({
      type: 'error',
      runId: state.runId,
      turn: state.turn,
      seq: state.seq++,
      error: result.error,
    });
  }
  context.deliver({ type: 'agent_end', runId: state.runId, turn: state.turn, seq: state.seq++, result });
  return result;
}

/**
 * The approvals the run pauses for, carrying the results of calls that ran
 * behind a paused one; with no approval to carry them (not a pause this loop
 * makes), those results are appended now, out of call order, rather than lost.
 */
function pausedApprovals(context: RunContext, approvals: readonly PendingApproval[]): PendingApproval[] {
  const state = context.state;
  const carried = withHeldResults(state.pending.list(), state.held, approvals);
  if (carried !== undefined) return carried;
  for (const call of state.pending.list()) {
    const held = takeHeld(state, call.id);
    if (held !== undefined) appendResult(context, held);
  }
  return [...approvals];
}

function endReasonText(reason: TerminateReason, haltError: AgentError | undefined): string {
  if (haltError !== undefined) return 'the guard ended the run first.';
  switch (reason) {
    case 'aborted':
      return 'the run was aborted first.';
    case 'timeout':
      return 'the run timed out first.';
    case 'error':
      return 'the run ended with an error first.';
    default:
      return 'the run ended first.';
  }
}

/** The result's record of a call, from how it ended. */
function toolCallRecord(end: ToolCallEnd): ToolCallRecord {
  const call = end.call;
  return {
    id: call.id,
    name: call.name,
    input: call.input,
    result: end.content,
    isError: end.isError,
    durationMs: end.durationMs,
  };
}
