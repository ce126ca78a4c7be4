import { AgentError } from './agent-error.js';

/**
 * A session id that stores refuse: a string of 1 to 128 letters, digits, `.`,
 * `_` and `-`, never `.` or `..`. `sessionId` is the id as text; a value that
 * was not a string at all says so in the message.
 */
export class InvalidSessionIdError extends AgentError {
  readonly sessionId: string;

  constructor(sessionId: unknown) {
    super(
      'invalid_session_id',
      typeof sessionId === 'string'
        ? `Session id ${JSON.stringify(sessionId).slice(0, 160)} is not allowed: use 1 to 128 letters, digits, '.', '_' or '-' (not '.' or '..'). Ids are never rewritten into another id.`
        : `A session id must be a string, got ${describe(sessionId)}. Pass the id as text, e.g. manager.get(String(id)).`,
    );
    this.name = 'InvalidSessionIdError';
    this.sessionId = String(sessionId);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value).slice(0, 40)}`;
}
