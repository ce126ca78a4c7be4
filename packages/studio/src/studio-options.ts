import { ConfigError, type Logger, type SessionAgentFactory, type SessionStore } from '@agent-core/core';
import type { HandOffDecisions } from './decision-hand-off.js';

/** Options of `startStudio`. */
export interface StudioOptions {
  /** Where the sessions are: any `SessionStore` (a `FileSessionStore`, a `PostgresSessionStore`...). */
  store: SessionStore;
  /**
   * Makes the agent of a session whose calls are decided in the studio, so
   * its run resumes in the studio's process (the same factory a
   * `SessionManager` takes). Without it the studio shows everything and
   * decides nothing.
   */
  agentOptions?: SessionAgentFactory;
  /**
   * Lets the app take a decision over, e.g. to enqueue the resume for the
   * workers that serve the session; when it resolves `undefined` the studio
   * resumes the run itself (with `agentOptions`). Asked for every decision
   * of calls that still wait.
   */
  handOffDecisions?: HandOffDecisions;
  /** The address to listen on. Default `127.0.0.1`: only this machine. */
  host?: string;
  /** The port. Default 0: a free one, in `studio.port`. */
  port?: number;
  /** The token of the printed address; default 24 random bytes. At least 16 characters when given. */
  token?: string;
  /** More `Host` names the studio answers (a name of this machine); any other Host is refused. */
  allowedHosts?: readonly string[];
  /** Exact values never shown (the app's API keys), on top of the secret shapes core's `redactSecrets` knows. */
  secrets?: readonly string[];
  /** How often an open session page reads the store for changes made by other processes. Default 1000 ms. */
  pollIntervalMs?: number;
  /** The sessions list is read from the store again at most this often. Default 2000 ms. */
  listRefreshMs?: number;
  /** Where warnings and decisions are logged, redacted. Default: warnings to stderr. */
  logger?: Logger;
}

/** Throws `ConfigError` naming the option that is wrong and what it takes. */
export function checkStudioOptions(options: StudioOptions): void {
  const given = options as Partial<StudioOptions> | undefined;
  const store = given?.store;
  if (
    typeof store?.load !== 'function' ||
    typeof store.list !== 'function' ||
    typeof store.read !== 'function'
  )
    throw new ConfigError(
      'startStudio needs a store: a SessionStore such as new FileSessionStore({ root }) or new PostgresSessionStore({ connectionString }).',
    );
  if (given?.agentOptions !== undefined && typeof given.agentOptions !== 'function')
    throw new ConfigError(
      "startStudio's agentOptions must be a function that returns a session's agent options, as a SessionManager takes.",
    );
  if (given?.handOffDecisions !== undefined && typeof given.handOffDecisions !== 'function')
    throw new ConfigError(
      "startStudio's handOffDecisions must be a function (sessionId, decisions) that enqueues the resume and resolves { outcome: 'enqueued', operationId }, or undefined to let the studio resume the run.",
    );
  if (given?.port !== undefined && (!Number.isInteger(given.port) || given.port < 0 || given.port > 65_535))
    throw new ConfigError(
      `startStudio's port must be a whole number from 0 to 65535, got ${String(given.port)}.`,
    );
  if (given?.host !== undefined && (typeof given.host !== 'string' || given.host === ''))
    throw new ConfigError("startStudio's host must be an address such as 127.0.0.1.");
  if (
    given?.token !== undefined &&
    (typeof given.token !== 'string' || !/^[A-Za-z0-9_-]{16,}$/.test(given.token))
  )
    throw new ConfigError(
      "startStudio's token must be at least 16 letters, digits, '_' or '-'; leave it out for a random one.",
    );
  for (const name of ['pollIntervalMs', 'listRefreshMs'] as const) {
    const value = given?.[name];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 10))
      throw new ConfigError(`startStudio's ${name} must be a number of milliseconds, at least 10.`);
  }
}
