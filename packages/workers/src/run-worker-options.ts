import {
  ConfigError,
  type Logger,
  type SessionAgentFactory,
  type SessionAgentOptions,
  type SessionStore,
} from '@agent-core/core';
import type { ProviderLimit } from './run-operation.js';
import type { RunSchedule } from './run-schedule.js';
import type { WorkersConnectionOptions } from './workers-database.js';

/** Options of `new RunWorker(...)`. */
export interface RunWorkerOptions extends WorkersConnectionOptions {
  /** The sessions' store, shared by every worker (a `PostgresSessionStore` in practice, whose leases fence a worker taken for dead). */
  store: SessionStore;
  /** Each session's agent options (provider, model, tools...), as `SessionManager` takes them. */
  agentOptions: SessionAgentFactory;
  /** Runs this worker runs at once. Default 4. */
  concurrency?: number;
  /**
   * The limit key of a session's provider and how many runs may use it at
   * once across every worker: a name the app chooses (`'anthropic:team-a'`) or
   * `providerLimitKey(apiKey)`, so the key's value is never stored. Undefined: no limit.
   */
  providerLimit?: (
    options: SessionAgentOptions,
    session: { id: string; metadata: Record<string, unknown> },
  ) => ProviderLimit | undefined;
  /** Prompts on cron schedules; give every worker the same. */
  schedules?: readonly RunSchedule[];
  /** How long a worker that stopped renewing holds its jobs before others take them. Default 30,000 ms, as the PostgreSQL store's session lease. */
  leaseDurationMs?: number;
  /** Attempts after which an operation that never settles (its workers keep dying) fails. Default 10. */
  maxAttempts?: number;
  /** How often the worker looks for jobs that became due without a notification (handed on with a delay). Default 1,000 ms. */
  pollIntervalMs?: number;
  logger?: Logger;
}

/** Options of `stop`. */
export interface StopOptions {
  /** How long runs in flight may take to finish; after it they are aborted and handed on. Default 30,000 ms. */
  deadlineMs?: number;
}

/** What a stop did with the runs in flight. */
export interface StopResult {
  /** Runs aborted at the deadline and handed on to other workers, to be continued from their sessions' logs. */
  handedOn: number;
}

/** Throws `ConfigError` for options a worker cannot work with, naming the option and what it takes. */
export function checkWorkerOptions(options: RunWorkerOptions): void {
  const given = options as Partial<RunWorkerOptions> | undefined;
  if (typeof given?.store?.load !== 'function')
    throw new ConfigError(
      'RunWorker needs store: the SessionStore the sessions live in (a PostgresSessionStore, say).',
    );
  if (typeof given.agentOptions !== 'function')
    throw new ConfigError(
      "RunWorker needs agentOptions: a function that returns a session's agent options, e.g. agentOptions: () => ({ provider, model }).",
    );
  for (const [name, value, least] of [
    ['concurrency', given.concurrency, 1],
    ['leaseDurationMs', given.leaseDurationMs, 30],
    ['maxAttempts', given.maxAttempts, 1],
    ['pollIntervalMs', given.pollIntervalMs, 10],
  ] as const)
    if (value !== undefined && (!Number.isInteger(value) || value < least))
      throw new ConfigError(
        `RunWorker: ${name} must be an integer of at least ${least}, got ${String(value)}.`,
      );
  if (given.providerLimit !== undefined && typeof given.providerLimit !== 'function')
    throw new ConfigError(
      'RunWorker: providerLimit must be a function of the agent options giving { key, limit }.',
    );
}
