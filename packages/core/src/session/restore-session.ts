import { danglingCalls } from '../loop/dangling-calls.js';
import { callOf, heldResults, withHeldResults } from '../loop/held-results.js';
import type { ToolCallEnd } from '../events/run-events.js';
import type { ToolCallBlock, ToolResultMessage } from '../messages/messages.js';
import { addUsage } from '../messages/usage.js';
import { historyProblems } from '../messages/history-problems.js';
import { SessionCorruptError } from '../errors/session-corrupt-error.js';
import { sessionDepthProblem } from './session-depth-problem.js';
import type { SessionLogRecord } from './session-event.js';
import { type SessionState, statusAfterRun } from './session-state.js';
import type { SessionStore } from './session-store.js';

/** A session as `restoreSession` found it: the snapshot with the log replayed on top. */
export interface RestoredSession {
  state: SessionState;
  /** Calls the log shows started and not finished: a process stopped while they ran. */
  unfinishedCalls: ToolCallBlock[];
}

/**
 * Loads a session's snapshot and replays the events-log records after it:
 * messages, run starts and ends, usage. A run with no `run_ended` leaves the
 * state `running`; pass the result to `repairInterrupted` before using it.
 * Throws `SessionNotFoundError` for an id never stored, and
 * `SessionCorruptError` when the log misses records after the snapshot or the
 * history it gives could not be sent to a provider (a result without its
 * call, a call id used twice): such a session is repaired, never loaded as it is.
 */
export async function restoreSession(store: SessionStore, id: string): Promise<RestoredSession> {
  const state = await store.load(id);
  const records = await store.read(id, { fromSeq: state.lastSeq + 1 });
  const restored = replayRecords(state, records);
  const problems = historyProblems(state.messages, { allowPendingCalls: true });
  if (problems.length > 0)
    throw new SessionCorruptError(
      `session '${id}'`,
      `its stored history could not be sent to a model: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''}. Repair it with the store's repair (FileSessionStore.repair(id), or 'agent-core sessions repair ${id}'), which keeps a backup and cuts the session back to its last consistent point.`,
    );
  return restored;
}

/**
 * Applies log records to a state in place; returns it with the calls left
 * unfinished. Records the state already holds (`seq <= state.lastSeq`) are
 * skipped; a gap in the seqs after it, or a record nested past
 * `maxSessionPartDepth`, throws `SessionCorruptError`.
 */
export function replayRecords(state: SessionState, records: readonly SessionLogRecord[]): RestoredSession {
  const started = new Map<string, ToolCallBlock>();
  for (const record of records) {
    if (record.seq <= state.lastSeq) continue;
    if (record.seq !== state.lastSeq + 1)
      throw new SessionCorruptError(
        `the events log of session '${state.id}'`,
        `records ${state.lastSeq + 1} to ${record.seq - 1} are missing, so the history after seq ${state.lastSeq} cannot be rebuilt. Repair the session (FileSessionStore.repair(id), or 'agent-core sessions repair ${state.id}') to cut it back to its last consistent point.`,
      );
    const event = record.event;
    // A store's read may hand over what another program wrote: a part too deep to copy is damage, not a crash.
    const tooDeep = sessionDepthProblem(event);
    if (tooDeep !== undefined)
      throw new SessionCorruptError(
        `the events log of session '${state.id}'`,
        `record ${record.seq}: ${tooDeep.detail}, so no agent-core wrote it. Repair the session (FileSessionStore.repair(id), or 'agent-core sessions repair ${state.id}') to cut it back to its last consistent point.`,
        { field: tooDeep.field },
      );
    switch (event.type) {
      case 'run_started':
        state.status = 'running';
        state.updatedAt = event.at;
        break;
      case 'message': {
        state.messages.push(event.message);
        const message = event.message as ToolResultMessage;
        if (message.role === 'toolResult') started.delete(message.toolCallId);
        break;
      }
      case 'tool_started':
        started.set(event.toolCallId, {
          type: 'toolCall',
          id: event.toolCallId,
          name: event.toolName,
          input: event.input,
        });
        break;
      case 'run_ended':
        state.status = statusAfterRun(event.reason);
        state.updatedAt = event.at;
        state.pendingApprovals = event.pendingApprovals ?? [];
        if (event.orchestratorState === undefined) delete state.orchestratorState;
        else state.orchestratorState = event.orchestratorState;
        if (event.alwaysAllowedTools !== undefined) state.alwaysAllowedTools = event.alwaysAllowedTools;
        if (event.trace !== undefined && state.trace === undefined) state.trace = event.trace;
        addUsage(state.usage, event.usage);
        started.clear();
        break;
      default:
        break;
    }
    state.lastSeq = record.seq;
  }
  return { state, unfinishedCalls: [...started.values()] };
}

/**
 * Repairs a session a process left `running` into `interrupted`. Among the
 * unanswered calls at the end of its history, a call that started and never
 * finished gets an error result saying its outcome is unknown (it is never
 * re-run silently), unless `isIdempotent(name)` says it may run again; calls
 * ahead of such a result that had not finished are answered as not run, so
 * results stay in call order; the calls after it are left for `resume()`.
 * Approvals of the calls it answered are dropped from `pendingApprovals`, and
 * results a pause held for later calls are kept (see `settleApprovals`).
 * While approvals still wait, the session is `await_user` rather than
 * `interrupted`. Returns true when it changed the state.
 */
export function repairInterrupted(
  restored: RestoredSession,
  isIdempotent: (toolName: string) => boolean = () => false,
): boolean {
  const state = restored.state;
  if (state.status !== 'running') return false;
  state.status = 'interrupted';
  const unfinished = new Set(restored.unfinishedCalls.map((call) => call.id));
  const calls = danglingCalls(state.messages).list();
  let last = -1;
  calls.forEach((call, index) => {
    if (unfinished.has(call.id) && !isIdempotent(call.name)) last = index;
  });
  for (let index = 0; index <= last; index++) {
    const call = calls[index] as ToolCallBlock;
    const unknown = unfinished.has(call.id) && !isIdempotent(call.name);
    state.messages.push({
      role: 'toolResult',
      toolCallId: call.id,
      toolName: call.name,
      isError: true,
      content: unknown
        ? `Tool call '${call.name}' was interrupted: the process stopped while it ran, so its outcome is unknown. It was not run again; check whether it took effect before calling it again.`
        : `Tool call '${call.name}' was not run: the process stopped before it could finish. Call it again if it is still needed.`,
    });
  }
  if (state.pendingApprovals.length > 0) settleApprovals(state);
  // Calls still waiting for a decision (a resume stopped before it applied them) keep the session
  // paused for its user, so an approvals inbox and an editor's session/load still ask for them.
  if (state.pendingApprovals.length > 0) state.status = 'await_user';
  return true;
}

/**
 * After a repair: approvals of calls the repair answered are dropped (deciding
 * them could change nothing), results a pause held for the calls now next in
 * line are appended, and results held further back stay with the approvals
 * still waiting (or are appended out of order when none is left to carry
 * them), so a finished call never runs again.
 */
function settleApprovals(state: SessionState): void {
  const pending = danglingCalls(state.messages);
  const held = heldResults(state.pendingApprovals, pending);
  if (held !== undefined) {
    for (const call of pending.list()) {
      const end = held.get(call.id);
      if (end === undefined) break;
      appendHeld(state, end);
      held.delete(call.id);
      pending.delete(call.id);
    }
  }
  const waiting = state.pendingApprovals.filter((approval) => pending.has(callOf(approval)));
  const calls = pending.list();
  const carried = withHeldResults(calls, held, waiting);
  if (carried !== undefined) {
    state.pendingApprovals = carried;
    return;
  }
  for (const call of calls) {
    const end = held?.get(call.id);
    if (end !== undefined) appendHeld(state, end);
  }
  state.pendingApprovals = withHeldResults(calls, undefined, waiting) ?? waiting;
}

function appendHeld(state: SessionState, end: ToolCallEnd): void {
  state.messages.push({
    role: 'toolResult',
    toolCallId: end.call.id,
    toolName: end.call.name,
    content: end.content,
    isError: end.isError,
  });
}
