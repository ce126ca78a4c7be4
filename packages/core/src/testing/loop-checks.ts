import type { Agent } from '../agent/agent.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMessage } from '../messages/messages.js';
import { historyProblems } from '../messages/history-problems.js';
import { ContractError } from '../orchestrator/contract-error.js';
import type { ModelRequest } from '../provider/provider.js';
import type { AgentResult } from '../result/agent-result.js';
import { ConformanceFailure } from './conformance-case.js';

/** A message the kit queued, with the event position it was queued at. */
export interface QueuedMessage {
  message: AgentMessage;
  kind: 'steering' | 'follow_up';
  at: number;
}

/** What one run (a prompt or a resume) left to check. */
export interface RunRecord {
  label: string;
  agent: Agent;
  result: AgentResult;
  events: readonly AgentEvent[];
  /** The model requests the run made. */
  requests: readonly ModelRequest[];
  /** Messages queued during the run. */
  queued: readonly QueuedMessage[];
  /** The event count when the orchestrator's run() returned; undefined when it never did. */
  returnedAt: number | undefined;
  /** The refusal run() rejected with, when it called a helper after the run stopped instead of returning. */
  stopIgnored: string | undefined;
  maxTurns: number;
}

/** What the checks hold the orchestrator to, by its claims. */
export interface CheckClaims {
  steering: boolean;
  followUps: boolean;
}

function fail(rule: string, record: RunRecord, message: string): never {
  throw new ConformanceFailure(rule, `${record.label}: ${message}`);
}

/** A broken contract the context refused, or a stop the orchestrator did not honour, as the kit's failure. */
export function checkEnd(record: RunRecord): void {
  const error = record.result.error;
  if (error === undefined) return;
  if (ContractError.isInstance(error)) fail(error.rule, record, error.message);
  if (error.code === 'orchestrator_unresponsive') fail('returns_after_stop', record, error.message);
  if (error.code === 'orchestrator_failed')
    fail('orchestrator_threw', record, `run() threw: ${error.message}`);
}

/** A run() that rejected with a helper's refusal went on after the run told it to stop. */
function checkStopped(record: RunRecord): void {
  if (record.stopIgnored === undefined) return;
  fail(
    'stops_when_told',
    record,
    `run() rejected with the refusal "${record.stopIgnored}": it called a helper after the run stopped. Check ctx.nextTurn() before every model call and return the reason it gives; return when ctx.aborted is true or a model call ends with ok: false.`,
  );
}

/** Everything one run must keep, whatever happened in it; throws `ConformanceFailure` naming the rule. */
export function checkRun(record: RunRecord, claims: CheckClaims): void {
  const { result, events, agent } = record;
  checkEnd(record);
  checkStopped(record);
  if (events[0]?.type !== 'agent_start')
    fail('events_ordered', record, `the first event is ${events[0]?.type}`);
  if (events.at(-1)?.type !== 'agent_end')
    fail('events_ordered', record, `the last event is ${events.at(-1)?.type}`);
  let open = false;
  let turns = 0;
  for (let index = 0; index < events.length; index++) {
    const event = events[index] as AgentEvent;
    const before = events[index - 1];
    if (before !== undefined && event.seq <= before.seq)
      fail('events_ordered', record, `seq ${event.seq} (${event.type}) came after ${before.seq}`);
    if (event.type === 'turn_start') {
      if (open) fail('turns_balanced', record, `turn ${event.turn} started before turn ${turns} ended`);
      turns++;
      if (event.turn !== turns)
        fail('turns_balanced', record, `turn ${event.turn} started as the run's turn ${turns}`);
      open = true;
    } else if (event.type === 'turn_end') {
      if (!open) fail('turns_balanced', record, `turn_end for turn ${event.turn} with no turn open`);
      open = false;
    }
  }
  if (open) fail('turns_balanced', record, `turn ${turns} never ended`);
  if (result.turns !== turns)
    fail('turns_counted', record, `the result says ${result.turns} turns, the events ${turns}`);
  if (turns > record.maxTurns)
    fail('max_turns_kept', record, `${turns} turns under maxTurns ${record.maxTurns}`);
  const paused = result.terminateReason === 'await_user';
  const problems = historyProblems(agent.messages, { allowPendingCalls: paused });
  if (problems.length > 0) fail('history_valid', record, `the history after the run: ${problems.join('; ')}`);
  if (paused && (result.pendingApprovals?.length ?? 0) === 0)
    fail('pause_lists_approvals', record, 'the run paused with no approval to decide');
  for (const [index, request] of record.requests.entries()) {
    const sent = historyProblems(request.messages);
    if (sent.length > 0)
      fail('history_valid_at_model_call', record, `model call ${index + 1} was sent: ${sent.join('; ')}`);
  }
  const ids = result.toolCalls.map((call) => call.id);
  if (new Set(ids).size !== ids.length)
    fail('tool_runs_once', record, `tool call records repeat an id: ${ids.join(', ')}`);
  checkQueued(record, claims);
}

/** Each queued message is in exactly one place; one queued while the orchestrator ran is taken by a run that completed. */
function checkQueued(record: RunRecord, claims: CheckClaims): void {
  const { agent, result } = record;
  const everywhere = [...agent.messages, ...agent.queued.steering, ...agent.queued.followUp];
  for (const queued of record.queued) {
    const places = everywhere.filter((candidate) => candidate === queued.message).length;
    if (places !== 1)
      fail(
        'queued_messages_kept',
        record,
        `a ${queued.kind} message queued at event ${queued.at} is in ${places} places`,
      );
    const duringRun = record.returnedAt !== undefined && queued.at < record.returnedAt;
    if (!duringRun || result.terminateReason !== 'completed') continue;
    const claimed = queued.kind === 'steering' ? claims.steering : claims.followUps;
    if (claimed && !agent.messages.includes(queued.message))
      fail(
        queued.kind === 'steering' ? 'steering_taken' : 'follow_up_taken',
        record,
        `a ${queued.kind} message queued at event ${queued.at} (${record.events[queued.at]?.type}), while run() was still going, was left for the next prompt although the run completed: poll ${queued.kind === 'steering' ? 'ctx.pollSteering()' : 'ctx.pollFollowUp()'} before completing`,
      );
  }
}
