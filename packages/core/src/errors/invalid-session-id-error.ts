import { AgentError } from './agent-error.js';

/** A session id that stores refuse: only letters, digits, `.`, `_` and `-`, 1 to 128 characters, never `.` or `..`. */
export class InvalidSessionIdError extends AgentError {
  readonly sessionId: string;

  constructor(sessionId: string) {
    super(
      'invalid_session_id',
      `Session id ${JSON.stringify(sessionId).slice(0, 160)} is not allowed: use 1 to 128 letters, digits, '.', '_' or '-' (not '.' or '..'). Ids are never rewritten into another id.`,
    );
    this.name = 'InvalidSessionIdError';
    this.sessionId = sessionId;
  }
}
