import { randomUUID } from 'node:crypto';
import {
  AgentError,
  type ApprovalDecision,
  ConfigError,
  type Logger,
  newSessionState,
  restoreSession,
} from '@agent-core/core';
import type { RunOutcome, RunQueue } from '@agent-core/workers';
import type { CliConfig } from '../config/load-config.js';
import { exitCodes } from '../exit-codes.js';
import type { CliArguments } from '../parse-args.js';
import { sessionMetadata } from '../sessions/cli-session.js';
import { latestInFolder } from '../sessions/conversation.js';
import { openQueue } from '../sessions/open-queue.js';
import type { OpenedStore } from '../sessions/open-store.js';
import { servingOperation } from '../sessions/serving-operation.js';
import type { OutputStream } from '../output/terminal-style.js';

/** Where the queue commands write, and how a wait is cut short (Ctrl-C). */
export interface QueueIo {
  out: OutputStream;
  errors: OutputStream;
  json: boolean;
  /** Aborts when the person stops waiting (Ctrl-C): the run goes on in its worker. */
  signal: AbortSignal;
}

/**
 * `run --queue "<prompt>"`: enqueues the prompt for the workers (`agent-core
 * worker`) in the chosen session (`--session`, `--continue`, else a new one),
 * as operation `--operation-id` (so the same command again runs nothing
 * more), then waits for its outcome and exits as `run` would: 0 answered, 3
 * paused for approval, 1 failed. `--no-wait` returns once it is enqueued.
 */
export async function runQueued(
  config: CliConfig,
  store: OpenedStore,
  args: CliArguments,
  io: QueueIo,
  logger: Logger,
): Promise<number> {
  const queue = await openQueue(config, store, { create: true, logger });
  try {
    const sessionId = await chosenSession(config, store, args);
    const operationId = args.operationId ?? `cli-${randomUUID()}`;
    const before = args.operationId === undefined ? undefined : await queue.outcome(operationId);
    const queued = await queue.enqueue(sessionId, args.prompt, { operationId });
    io.errors.write(
      `agent-core: ${before === undefined ? 'enqueued' : `already enqueued (${before.state})`}: operation ${operationId} in session ${sessionId}; 'agent-core worker' processes run it\n`,
    );
    return await settle(queue, queued, args, io);
  } finally {
    await queue.close();
  }
}

/**
 * `approve SESSION` of a session the workers serve (the queue holds an
 * operation of it): decides the waiting calls (all, or those named; `--deny`)
 * and enqueues the resume for a worker, then waits for its outcome unless
 * `--no-wait`. Resolves undefined when no worker pool serves the session (no
 * queue tables, or no operation of it), so `approve` runs it here as before.
 */
export async function approveQueued(
  config: CliConfig,
  store: OpenedStore,
  args: CliArguments,
  io: QueueIo,
  logger: Logger,
): Promise<number | undefined> {
  if (store.kind !== 'postgres') return undefined;
  const sessionId = args.target as string;
  const queue = await openQueue(config, store, { create: false, logger });
  try {
    if ((await servingOperation(queue, sessionId)) === undefined) return undefined;
    const decisions = await decisionsOf(store, sessionId, args, io);
    if (typeof decisions === 'number') return decisions;
    let resumed: RunOutcome;
    try {
      resumed = await queue.decide(sessionId, decisions);
    } catch (error) {
      if (!AgentError.isInstance(error) || !error.code.startsWith('approval_')) throw error;
      io.errors.write(`agent-core: ${error.message}\n`);
      return error.code === 'approval_unknown_call' ? exitCodes.usage : exitCodes.failed;
    }
    io.errors.write(
      `agent-core: decided; operation ${resumed.operationId} resumes session ${sessionId} in a worker\n`,
    );
    return await settle(queue, resumed, args, io);
  } finally {
    await queue.close();
  }
}

/** The decisions `approve` asks for: every waiting call, or those named, allowed or (`--deny`) denied. */
async function decisionsOf(
  store: OpenedStore,
  sessionId: string,
  args: CliArguments,
  io: QueueIo,
): Promise<readonly ApprovalDecision[] | 'allow' | 'deny' | number> {
  if (args.calls.length === 0 && args.reason === undefined) return args.deny ? 'deny' : 'allow';
  const { state } = await restoreSession(store.store, sessionId);
  const waiting = state.pendingApprovals;
  const chosen = args.calls.length === 0 ? waiting.map((approval) => approval.toolCallId) : args.calls;
  const decisions: ApprovalDecision[] = [];
  for (const id of chosen) {
    const approval = waiting.find((candidate) => candidate.toolCallId === id);
    if (approval === undefined) {
      io.errors.write(
        `agent-core: session ${sessionId} has no tool call '${id}' waiting. Waiting calls: ${waiting.map((candidate) => candidate.toolCallId).join(', ') || 'none'}.\n`,
      );
      return exitCodes.usage;
    }
    const path = approval.agentPath.length > 0 ? { agentPath: approval.agentPath } : {};
    decisions.push(
      args.deny
        ? {
            toolCallId: id,
            inputHash: approval.inputHash,
            decision: 'deny',
            ...path,
            ...(args.reason === undefined ? {} : { reason: args.reason }),
          }
        : { toolCallId: id, inputHash: approval.inputHash, decision: 'allow', ...path },
    );
  }
  return decisions;
}

/** The session `run --queue` enqueues into: the one named, the latest of this folder, or a new one. */
async function chosenSession(config: CliConfig, store: OpenedStore, args: CliArguments): Promise<string> {
  if (args.session !== undefined && args.session !== 'new') {
    try {
      await store.store.load(args.session);
    } catch (error) {
      if (!AgentError.isInstance(error) || error.code !== 'session_not_found') throw error;
      throw new ConfigError(
        `No session '${args.session}' is stored in ${store.label}. 'agent-core sessions list' shows the stored sessions; --session new starts one.`,
        { cause: error },
      );
    }
    return args.session;
  }
  if (args.continue) {
    const latest = await latestInFolder(store.store, config.cwd);
    if (latest === undefined)
      throw new ConfigError(
        `No stored session was started in ${config.cwd}, so --continue has nothing to continue. 'agent-core sessions list' shows the stored sessions.`,
      );
    return latest;
  }
  const state = newSessionState({ metadata: sessionMetadata({ config }) });
  await store.store.save(state, { expectedVersion: 0 });
  return state.id;
}

/** Waits for the operation (unless `--no-wait`) and reports it: the answer on stdout, the exit code by how it ended. */
async function settle(queue: RunQueue, queued: RunOutcome, args: CliArguments, io: QueueIo): Promise<number> {
  if (args.noWait) {
    io.out.write(io.json ? `${JSON.stringify(queued)}\n` : `${queued.operationId}\n`);
    return exitCodes.completed;
  }
  if (!io.json)
    io.errors.write(
      'agent-core: waiting for a worker to finish it (Ctrl-C stops the waiting, not the run)\n',
    );
  let outcome: RunOutcome;
  try {
    outcome = await queue.wait(queued.operationId, { signal: io.signal });
  } catch (error) {
    if (!io.signal.aborted) throw error;
    io.errors.write(
      `agent-core: stopped waiting; operation ${queued.operationId} goes on in its worker ('agent-core sessions show ${queued.sessionId}' shows how far it got)\n`,
    );
    return exitCodes.interrupted;
  }
  if (io.json) io.out.write(`${JSON.stringify(outcome)}\n`);
  else if (outcome.text !== undefined) io.out.write(`${outcome.text}\n`);
  const attempts = outcome.attempts > 1 ? `, ${outcome.attempts} attempts (a worker stopped during it)` : '';
  if (outcome.state === 'failed') {
    io.errors.write(
      `agent-core: operation ${outcome.operationId} failed${attempts}: ${outcome.error?.message ?? outcome.terminateReason}\n`,
    );
    return exitCodes.failed;
  }
  if (outcome.terminateReason === 'await_user') {
    const count = outcome.pendingApprovals ?? 1;
    io.errors.write(
      `agent-core: [await_user] session ${outcome.sessionId} waits for approval of ${count} tool call${count === 1 ? '' : 's'} ('agent-core approvals' lists them). Decide from any terminal: agent-core approve ${outcome.sessionId} [CALL...]  (or --deny)\n`,
    );
    return exitCodes.awaitingApproval;
  }
  io.errors.write(
    `agent-core: operation ${outcome.operationId} ${outcome.terminateReason}${attempts} · session ${outcome.sessionId}\n`,
  );
  return outcome.terminateReason === 'completed' && (outcome.text ?? '').trim() !== ''
    ? exitCodes.completed
    : exitCodes.failed;
}
