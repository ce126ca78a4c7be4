import { AgentError } from './agent-error.js';

/**
 * Why a store could not write or read: `locked`, another process held the
 * session's lock past the store's timeout; `unavailable`, the server or
 * medium cannot be reached now (a database gone away, a connection dropped);
 * `auth`, the server refused the store's login (a wrong or missing user,
 * password or database), which trying again as it is cannot mend.
 */
export type SessionStorageProblem = 'full' | 'read_only' | 'locked' | 'unavailable' | 'auth' | 'io';

/**
 * A store could not write or read its medium: the disk is full, the folder is
 * read-only, another process holds the session's lock too long, the server is
 * unreachable or refuses the login, or another I/O failure. `path` names the file or key (never a
 * password). `retryable` says whether the same call may succeed later without
 * anyone changing anything (a lock, a server restarting). What was stored before is untouched.
 */
export class SessionStorageError extends AgentError {
  readonly path: string;
  readonly problem: SessionStorageProblem;
  readonly retryable: boolean;

  constructor(
    path: string,
    problem: SessionStorageProblem,
    detail: string,
    options: { cause?: unknown; retryable?: boolean } = {},
  ) {
    const advice =
      problem === 'full'
        ? 'The device is full: free some space and retry.'
        : problem === 'read_only'
          ? 'The location is read-only or not writable by this process: fix its permissions or choose another root.'
          : problem === 'locked'
            ? 'Another process is writing this session: retry later, or remove the lock file if no process uses the session any more.'
            : problem === 'unavailable'
              ? 'The store cannot be reached now: retry once it is back.'
              : problem === 'auth'
                ? 'Fix the credentials the store logs in with and try again; as they are, every try fails the same way.'
                : 'Check the location and retry.';
    super(
      `session_storage_${problem}`,
      `Could not write or read ${path}: ${detail}. ${advice} Nothing stored before was changed.`,
      { cause: options.cause },
    );
    this.name = 'SessionStorageError';
    this.path = path;
    this.problem = problem;
    this.retryable = options.retryable ?? (problem === 'locked' || problem === 'unavailable');
  }
}
