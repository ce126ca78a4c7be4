import { AgentError } from './agent-error.js';

/** Why a store could not write or read; `locked`: another process held the session's lock past the store's timeout. */
export type SessionStorageProblem = 'full' | 'read_only' | 'locked' | 'io';

/**
 * A store could not write or read its medium: the disk is full, the folder is
 * read-only, another process holds the session's lock too long, or another
 * I/O failure. `path` names the file or key. What was stored before is untouched.
 */
export class SessionStorageError extends AgentError {
  readonly path: string;
  readonly problem: SessionStorageProblem;

  constructor(
    path: string,
    problem: SessionStorageProblem,
    detail: string,
    options: { cause?: unknown } = {},
  ) {
    const advice =
      problem === 'full'
        ? 'The device is full: free some space and retry.'
        : problem === 'read_only'
          ? 'The location is read-only or not writable by this process: fix its permissions or choose another root.'
          : problem === 'locked'
            ? 'Another process is writing this session: retry later, or remove the lock file if no process uses the session any more.'
            : 'Check the location and retry.';
    super(
      `session_storage_${problem}`,
      `Could not write or read ${path}: ${detail}. ${advice} Nothing stored before was changed.`,
      options,
    );
    this.name = 'SessionStorageError';
    this.path = path;
    this.problem = problem;
  }
}
