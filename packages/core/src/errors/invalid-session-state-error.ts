import { AgentError } from './agent-error.js';

/**
 * A session state that a store refuses to write because it could not be read
 * back: a field of the wrong type (`metadata` that is not an object, a
 * message without its role's fields). `field` is the path of the first bad
 * value. Nothing was written.
 */
export class InvalidSessionStateError extends AgentError {
  readonly sessionId: string;
  readonly field: string | undefined;

  constructor(sessionId: string, detail: string, field?: string) {
    super(
      'invalid_session_state',
      `Session '${sessionId}' was not stored: ${field === undefined || field === '' ? '' : `field '${field}': `}${detail} Nothing was written; fix the value (metadata is a plain JSON object, messages follow AgentMessage) and try again.`,
    );
    this.name = 'InvalidSessionStateError';
    this.sessionId = sessionId;
    this.field = field;
  }
}
