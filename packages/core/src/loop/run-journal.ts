import type { AgentResult } from '../result/agent-result.js';
import type { AgentMessage, ToolCallBlock } from '../messages/messages.js';

/**
 * What a run reports to durable storage; `SessionJournal` writes it to a
 * `SessionStore`. The loop calls it only when the agent has one
 * (`AgentOptions.journal`), so a run without a store pays one `undefined` check.
 *
 * Contract:
 * - `message` queues a message as it joins the history; it is durable once a
 *   later `flush`, `toolStarted` or `toolFinished` resolves. The loop flushes
 *   before every model call, so the user's message is stored before the model sees it.
 * - `toolStarted` resolves only once the call (and everything queued before
 *   it) is durable; the tool runs after. If it rejects, the tool is not run.
 * - `runEnded` resolves once the end of the run is durable; a rejection is
 *   reported in the run's `result.error`, never thrown from `result()`.
 * - After one failure every later flush rejects with the same error.
 */
export interface RunJournal {
  runStarted(runId: string): void;
  message(message: AgentMessage): void;
  toolStarted(call: ToolCallBlock): Promise<void>;
  toolFinished(call: ToolCallBlock, outcome: { isError: boolean; durationMs: number }): Promise<void>;
  flush(): Promise<void>;
  /** Records the run's end, with the tools a person allowed always (plain JSON, kept with the session). */
  runEnded(result: AgentResult, approvals: { alwaysAllowedTools: string[] }): Promise<void>;
  /**
   * Claims the session for the run, so that one process runs it at a time and
   * two processes deciding the same pause give one execution. Optional: a
   * journal without it runs as before.
   *
   * Contract:
   * - Called once at the start of every run, with the history as loaded and
   *   whether the run applies approval decisions, before `runStarted` is
   *   logged, before any model call or tool runs and before anything of that
   *   run is written.
   * - Resolves once this process holds the session for this run; rejects when
   *   another process runs it or changed it since this one loaded it. The run
   *   then ends with `error` and that error; nothing of it may reach the
   *   store, so after a rejection every later flush rejects too.
   * - What the claim holds is given back by `runEnded`, whether it resolves or rejects.
   */
  claim?(messages: readonly AgentMessage[], run: { decisions: boolean }): Promise<void>;
}
