import { AgentError } from './agent-error.js';

/**
 * A session was saved with a version other than the one stored: another
 * writer saved it first. Nothing was written; load the session again and retry.
 * Also thrown (with `detail` as its message) when a run starts on a session
 * another process changed since this one loaded it.
 */
export class SessionConflictError extends AgentError {
  readonly sessionId: string;
  readonly expectedVersion: number;
  /** The stored version, or `undefined` when no session is stored under that id. */
  readonly actualVersion: number | undefined;

  constructor(
    sessionId: string,
    expectedVersion: number,
    actualVersion: number | undefined,
    detail?: string,
  ) {
    super(
      'session_conflict',
      detail !== undefined
        ? detail
        : actualVersion === undefined
          ? `Session '${sessionId}' was saved expecting version ${expectedVersion}, but no such session is stored. Nothing was written; create it with expectedVersion 0.`
          : `Session '${sessionId}' was saved expecting version ${expectedVersion}, but version ${actualVersion} is stored (another writer saved it first). Nothing was written; load it again and retry.`,
    );
    this.name = 'SessionConflictError';
    this.sessionId = sessionId;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }
}
