import {
  type AgentEvent,
  type AgentResult,
  type AgentRun,
  type Logger,
  type Session,
  type SessionAgentFactory,
  SessionManager,
  type SessionStore,
} from '@agent-core/core';
import type { HandOffDecisions } from '../../decision-hand-off.js';
import type { DecisionAnswer, DecisionInput, LiveMark, PromptAnswer } from '../../shared/studio-data.js';
import { describeError } from '../view/describe-error.js';
import type { Redactor } from '../view/redactor.js';
import { decisionsFor, refusal } from './decisions-for.js';
import { handOffDecision } from './hand-off-decision.js';

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
 * decided answers what became of it, and a claim another process won runs
 * nothing. The app's `handOffDecisions`, when given, is offered each decision
 * first: what it takes over (an enqueued resume) is not run here.
 */
export class StudioRuns {
  readonly #manager: SessionManager | undefined;
  readonly #store: SessionStore;
  readonly #handOff: HandOffDecisions | undefined;
  readonly #redactor: Redactor;
  readonly #logger: Logger;
  readonly #activity: RunActivity;
  readonly #marks = new Map<string, LiveMark[]>();
  readonly #running = new Map<string, { session: Session; run: AgentRun }>();
  /** Decisions and prompts for one session are taken one at a time in this process. */
  readonly #turns = new Map<string, Promise<unknown>>();

  constructor(
    store: SessionStore,
    agentOptions: SessionAgentFactory | undefined,
    options: { redactor: Redactor; logger: Logger; activity: RunActivity; handOff?: HandOffDecisions },
  ) {
    this.#store = store;
    this.#handOff = options.handOff;
    this.#manager =
      agentOptions === undefined
        ? undefined
        : new SessionManager({ store, agentOptions, logger: options.logger });
    this.#redactor = options.redactor;
    this.#logger = options.logger;
    this.#activity = options.activity;
  }

  /** Whether this studio can decide calls (it was given an agent factory, or the app takes decisions over). */
  get canDecide(): boolean {
    return this.#manager !== undefined || this.#handOff !== undefined;
  }

  /** Whether this studio can run a prompt (it was given an agent factory). */
  get canPrompt(): boolean {
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
    return this.#inTurn(sessionId, () => this.#decide(sessionId, inputs));
  }

  /** Prompts a session from the page: its run goes on here, its text streamed to the session's live pages. */
  prompt(sessionId: string, text: string): Promise<PromptAnswer> {
    return this.#inTurn(sessionId, () => this.#prompt(sessionId, text));
  }

  #inTurn<Answer>(sessionId: string, work: () => Promise<Answer>): Promise<Answer> {
    const before = this.#turns.get(sessionId) ?? Promise.resolve();
    const turn = before.then(work);
    const settled = turn.catch(() => {});
    this.#turns.set(sessionId, settled);
    void settled.then(() => {
      if (this.#turns.get(sessionId) === settled) this.#turns.delete(sessionId);
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
    if (!this.canDecide)
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
    if (this.#handOff !== undefined) {
      const answer = await handOffDecision(this.#store, sessionId, inputs, this.#handOff, this.#redactor);
      // Taken over (or answered without resuming): the worker's run reaches open pages through the store's log.
      if (answer !== undefined) return answer;
    }
    const manager = this.#manager;
    if (manager === undefined)
      return {
        outcome: 'refused',
        message:
          'The app did not take this decision over, and this studio has no agent to resume the run itself: decide with agent-core approve, or start the studio with an agent factory.',
      };
    // Always from the store as it is now: another process may have decided or run it since.
    manager.close(sessionId);
    const session = await manager.get(sessionId);
    const chosen = decisionsFor(
      {
        id: session.id,
        messages: session.messages,
        pendingApprovals: session.agent.pendingApprovals,
        toolNames: new Set(session.agent.tools.map((tool) => tool.name)),
      },
      inputs,
    );
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
    const ended = this.#track(sessionId, session, run, unsubscribe);
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

  async #prompt(sessionId: string, text: string): Promise<PromptAnswer> {
    const manager = this.#manager;
    if (manager === undefined)
      return {
        outcome: 'refused',
        message: 'This studio was started without an agent, so it cannot run a prompt.',
      };
    if (this.#running.has(sessionId))
      return {
        outcome: 'refused',
        message: `Session ${sessionId} is running in this studio; wait for its run to end.`,
      };
    manager.close(sessionId);
    const session = await manager.get(sessionId);
    if (session.agent.pendingApprovals.length > 0) {
      manager.close(sessionId);
      return { outcome: 'refused', message: 'Calls of this session wait for a decision: decide them first.' };
    }
    let started: () => void = () => {};
    const claimHeld = new Promise<void>((resolve) => {
      started = resolve;
    });
    const unsubscribe = session.agent.subscribe((event) => {
      // A model call begins only once the run holds the session (the store's lease and a current log).
      if (event.type === 'message_start') started();
      this.#observe(sessionId, event);
    });
    let run: AgentRun;
    try {
      run = session.prompt(text);
    } catch (error) {
      unsubscribe();
      manager.close(sessionId);
      const answer = refusal(error, this.#redactor);
      return {
        outcome: 'refused',
        message: 'message' in answer ? answer.message : describeError(error, this.#redactor),
      };
    }
    const ended = this.#track(sessionId, session, run, unsubscribe);
    const first = await Promise.race([claimHeld.then(() => undefined), ended]);
    // Ended before its first model call: the claim was refused (another process runs the session) or a check failed.
    if (first?.error !== undefined)
      return {
        outcome: 'refused',
        message: describeError(first.error, this.#redactor),
        code: first.error.code,
      };
    return { outcome: 'started', runId: run.runId };
  }

  /** Keeps a run of this studio's until it ends; then the session is put away, so the next use reads the store again. */
  #track(sessionId: string, session: Session, run: AgentRun, unsubscribe: () => void): Promise<AgentResult> {
    this.#running.set(sessionId, { session, run });
    return run.result().then((result) => {
      unsubscribe();
      this.#running.delete(sessionId);
      this.#manager?.close(sessionId);
      this.#activity.ended(sessionId);
      return result;
    });
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

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds).unref());
}
