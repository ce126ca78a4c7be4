import {
  AgentError,
  type AgentEvent,
  type ApprovalDecision,
  type AgentRun,
  type DecidedCall,
  inputHash,
  isModelMessage,
  type Logger,
  type Session,
  type SessionAgentFactory,
  SessionManager,
  type SessionStore,
  toolCallsOf,
} from '@agent-core/core';
import type { DecisionAnswer, DecisionInput, LiveMark } from '../../shared/studio-data.js';
import { describeError } from '../view/describe-error.js';
import type { Redactor } from '../view/redactor.js';

/** How long a decision waits for a run of its session that the studio is running to end. */
const runWaitMs = 10_000;

/** Marks remembered per session; older ones are forgotten. */
const marksPerSession = 500;

/** What `StudioRuns` tells the rest of the studio about the runs it runs. */
export interface RunActivity {
  /** Something happened in a run of this session (the log may have grown). */
  activity(sessionId: string): void;
  /** Text the model streamed in a run of this session (not in the log until the message ends). */
  delta(sessionId: string, runId: string, text: string): void;
  mark(sessionId: string, mark: LiveMark): void;
  /** A run of this session ended. */
  ended(sessionId: string): void;
}

/**
 * The runs the studio resumes after a decision, in its own process, over a
 * `SessionManager` of the app's agent factory. Every decision goes through
 * core's claim (`session.resume({ decisions })`), as `agent-core approve`
 * does, so a call is decided exactly once whoever decides it: a call already
 * decided answers what became of it, and a claim another process won runs nothing.
 */
export class StudioRuns {
  readonly #manager: SessionManager | undefined;
  readonly #redactor: Redactor;
  readonly #logger: Logger;
  readonly #activity: RunActivity;
  readonly #marks = new Map<string, LiveMark[]>();
  readonly #running = new Map<string, { session: Session; run: AgentRun }>();
  /** Decisions for one session are taken one at a time in this process. */
  readonly #deciding = new Map<string, Promise<unknown>>();

  constructor(
    store: SessionStore,
    agentOptions: SessionAgentFactory | undefined,
    options: { redactor: Redactor; logger: Logger; activity: RunActivity },
  ) {
    this.#manager =
      agentOptions === undefined
        ? undefined
        : new SessionManager({ store, agentOptions, logger: options.logger });
    this.#redactor = options.redactor;
    this.#logger = options.logger;
    this.#activity = options.activity;
  }

  /** Whether this studio can decide calls (it was given an agent factory). */
  get canDecide(): boolean {
    return this.#manager !== undefined;
  }

  /** What the studio saw in its own runs of this session that the log does not keep (retries, errors). */
  marks(sessionId: string): readonly LiveMark[] {
    return this.#marks.get(sessionId) ?? [];
  }

  /** Whether a run of this session is going on in this process. */
  isRunning(sessionId: string): boolean {
    return this.#running.has(sessionId);
  }

  /** Decides calls of a session and, once the claim holds, resumes its run here; see `DecisionAnswer`. */
  decide(sessionId: string, inputs: readonly DecisionInput[]): Promise<DecisionAnswer> {
    const before = this.#deciding.get(sessionId) ?? Promise.resolve();
    const turn = before.then(() => this.#decide(sessionId, inputs));
    const settled = turn.catch(() => {});
    this.#deciding.set(sessionId, settled);
    void settled.then(() => {
      if (this.#deciding.get(sessionId) === settled) this.#deciding.delete(sessionId);
    });
    return turn;
  }

  /** Cancels the runs going on here and waits for each to end (its history stays valid). */
  async close(): Promise<void> {
    const running = [...this.#running.values()];
    for (const { session } of running) session.cancel('the studio is closing');
    await Promise.all(running.map(({ run }) => run.result()));
  }

  async #decide(sessionId: string, inputs: readonly DecisionInput[]): Promise<DecisionAnswer> {
    const manager = this.#manager;
    if (manager === undefined)
      return {
        outcome: 'refused',
        message:
          'This studio was started without an agent, so it cannot run tools: decide with agent-core approve, or start the studio with an agent factory.',
      };
    // A run this studio resumed may be applying the very call: its end tells what became of it.
    const running = this.#running.get(sessionId);
    if (running !== undefined) await Promise.race([running.run.result(), delay(runWaitMs)]);
    if (this.#running.has(sessionId))
      return {
        outcome: 'refused',
        message: `Session ${sessionId} is running in this studio; decide again once its run ends.`,
      };
    // Always from the store as it is now: another process may have decided or run it since.
    manager.close(sessionId);
    const session = await manager.get(sessionId);
    const chosen = decisionsFor(session, inputs);
    if ('problem' in chosen) {
      manager.close(sessionId);
      return { outcome: 'refused', message: chosen.problem };
    }
    const calls = new Set(chosen.decisions.map((decision) => decision.toolCallId));
    let applied: () => void = () => {};
    const claimHeld = new Promise<void>((resolve) => {
      applied = resolve;
    });
    const unsubscribe = session.agent.subscribe((event) => {
      if (event.type === 'approval' && event.source === 'decision' && calls.has(event.toolCall.id)) applied();
      this.#observe(sessionId, event);
    });
    let run: AgentRun;
    try {
      run = session.resume({ decisions: chosen.decisions });
    } catch (error) {
      unsubscribe();
      manager.close(sessionId);
      return refusal(error, this.#redactor);
    }
    this.#running.set(sessionId, { session, run });
    const ended = run.result().then((result) => {
      unsubscribe();
      this.#running.delete(sessionId);
      manager.close(sessionId);
      this.#activity.ended(sessionId);
      return result;
    });
    const first = await Promise.race([claimHeld.then(() => undefined), ended]);
    if (first === undefined) return { outcome: 'resumed', runId: run.runId };
    const error = first.error;
    if (error !== undefined && error.code === 'approval_claimed') {
      this.#logger.info('a decision lost its claim to another decider', { sessionId });
      return {
        outcome: 'claimed_elsewhere',
        message: this.#redactor.text(
          `Another decider (agent-core approve, another studio) took session ${sessionId} first, so nothing ran here. Its page shows what became of the call.`,
        ),
      };
    }
    return { outcome: 'resumed', runId: run.runId };
  }

  #observe(sessionId: string, event: AgentEvent): void {
    const at = new Date().toISOString();
    switch (event.type) {
      case 'text_delta':
        this.#activity.delta(sessionId, event.runId, this.#redactor.text(event.delta));
        return;
      case 'retry':
        this.#addMark(sessionId, {
          runId: event.runId,
          kind: 'retry',
          at,
          text: `retry ${event.attempt} after ${Math.round(event.delayMs)} ms: ${describeError(event.error, this.#redactor)}`,
        });
        break;
      case 'error':
        this.#addMark(sessionId, {
          runId: event.runId,
          kind: 'error',
          at,
          text: describeError(event.error, this.#redactor),
        });
        break;
      default:
        break;
    }
    this.#activity.activity(sessionId);
  }

  #addMark(sessionId: string, mark: LiveMark): void {
    let marks = this.#marks.get(sessionId);
    if (marks === undefined) {
      marks = [];
      this.#marks.set(sessionId, marks);
    }
    marks.push(mark);
    if (marks.length > marksPerSession) marks.shift();
    this.#activity.mark(sessionId, mark);
  }
}

/**
 * The decisions for the calls named, bound to their input hashes: a waiting
 * call from the session's pending approvals; a call of the history that no
 * longer waits is passed on too, so core says what became of it. A call the
 * session never held, or an approved call whose tool this agent lacks, is a problem.
 */
function decisionsFor(
  session: Session,
  inputs: readonly DecisionInput[],
): { decisions: ApprovalDecision[] } | { problem: string } {
  if (inputs.length === 0) return { problem: 'No decision was given.' };
  const pending = session.agent.pendingApprovals;
  const tools = new Set(session.agent.tools.map((tool) => tool.name));
  const decisions: ApprovalDecision[] = [];
  for (const input of inputs) {
    const reason =
      input.decision === 'deny' && input.reason !== undefined && input.reason !== ''
        ? { reason: input.reason }
        : {};
    const waiting = pending.find((approval) => approval.toolCallId === input.toolCallId);
    if (waiting !== undefined) {
      if (input.decision === 'allow' && waiting.agentPath.length === 0 && !tools.has(waiting.toolName))
        return {
          problem: `The call needs the tool '${waiting.toolName}', which this studio's agent does not have: start the studio with the same tools as the session's runs. Nothing was run.`,
        };
      const path = waiting.agentPath.length > 0 ? { agentPath: waiting.agentPath } : {};
      decisions.push(
        input.decision === 'deny'
          ? {
              toolCallId: input.toolCallId,
              inputHash: waiting.inputHash,
              decision: 'deny',
              ...reason,
              ...path,
            }
          : { toolCallId: input.toolCallId, inputHash: waiting.inputHash, decision: 'allow', ...path },
      );
      continue;
    }
    const call = findCall(session, input.toolCallId);
    if (call === undefined)
      return {
        problem: `Session ${session.id} has no tool call '${input.toolCallId}'. Waiting calls: ${pending.map((approval) => approval.toolCallId).join(', ') || 'none'}.`,
      };
    decisions.push(
      input.decision === 'deny'
        ? { toolCallId: input.toolCallId, inputHash: inputHash(call.input), decision: 'deny', ...reason }
        : { toolCallId: input.toolCallId, inputHash: inputHash(call.input), decision: 'allow' },
    );
  }
  return { decisions };
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds).unref());
}

function findCall(session: Session, id: string) {
  for (const message of session.messages) {
    if (!isModelMessage(message) || message.role !== 'assistant') continue;
    const call = toolCallsOf(message).find((block) => block.id === id);
    if (call !== undefined) return call;
  }
  return undefined;
}

function refusal(error: unknown, redactor: Redactor): DecisionAnswer {
  if (AgentError.isInstance(error) && error.code === 'approval_already_decided') {
    const decided = ((error as AgentError & { decided?: readonly DecidedCall[] }).decided ?? []).map(
      (call) => ({
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        isError: call.isError,
        result: redactor.text(call.result),
      }),
    );
    return { outcome: 'already_decided', decided, message: describeError(error, redactor) };
  }
  if (AgentError.isInstance(error))
    return { outcome: 'refused', message: describeError(error, redactor), code: error.code };
  throw error;
}
