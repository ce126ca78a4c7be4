import { AgentError, SessionStorageError } from '@agent-core/core';
import { type LoginSettings, loginProblem } from './login-problem.js';

/** Node socket errors that mean the server cannot be reached now. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
]);

/** What `pg` says when a connection drops or cannot be had (its errors carry no code for these). */
const droppedConnection =
  /Connection terminated|connection error|Connection ended|not queryable|timeout exceeded when trying to connect|Client was closed|Query read timeout/i;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') {
    return error.errors.map((inner: unknown) => messageOf(inner)).join('; ');
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Whether a failure means the server could not be reached or dropped the
 * connection: a refused or reset socket, a server shutting down or not yet
 * accepting connections (SQLSTATE 57P01 to 57P03, class 08), too many
 * connections, or the pool's own timeout. Such a call may succeed once the server is back.
 */
export function isConnectionFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined) {
    if (socketCodes.has(code)) return true;
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300')
      return true;
  }
  if (error instanceof AggregateError)
    return error.errors.some((inner: unknown) => isConnectionFailure(inner));
  return droppedConnection.test(messageOf(error));
}

/**
 * Maps a driver or server failure onto core's `SessionStorageError`, naming
 * `where` (never the password): `auth` when the server refused the login of
 * `login`, saying which credential (see `loginProblem`); `unavailable` and
 * retryable when the server cannot be reached; `full` for a full disk;
 * `read_only` for a read-only server or missing privileges; `locked` for a
 * lock timeout; `io` for the rest, retryable for a statement timeout, a
 * serialization failure or a deadlock. An agent-core error passes through unchanged.
 */
export function storageErrorOf(
  error: unknown,
  where: string,
  scrub: (text: string) => string,
  login?: LoginSettings,
): AgentError {
  if (AgentError.isInstance(error)) return error;
  const options = { cause: error };
  const refused = login === undefined ? undefined : loginProblem(error, login);
  if (refused !== undefined) return new SessionStorageError(where, 'auth', scrub(refused), options);
  const code = codeOf(error);
  const detail = scrub(`${messageOf(error)}${code === undefined ? '' : ` (${code})`}`);
  if (isConnectionFailure(error)) return new SessionStorageError(where, 'unavailable', detail, options);
  switch (code) {
    case '53100':
      return new SessionStorageError(where, 'full', detail, options);
    case '25006':
    case '42501':
      return new SessionStorageError(where, 'read_only', detail, options);
    case '55P03':
      return new SessionStorageError(where, 'locked', detail, options);
    case '57014':
    case '40001':
    case '40P01':
    case '53000':
    case '53200':
    case '53400':
      return new SessionStorageError(where, 'io', detail, { ...options, retryable: true });
    default:
      return new SessionStorageError(where, 'io', detail, options);
  }
}
