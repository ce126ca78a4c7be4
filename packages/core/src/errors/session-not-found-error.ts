import { AgentError } from './agent-error.js';

/** No session is stored under an id. A load never starts an empty session in its place. */
export class SessionNotFoundError extends AgentError {
  readonly sessionId: string;

  constructor(sessionId: string, where?: string) {
    super(
      'session_not_found',
      `No session '${sessionId}' is stored${where === undefined ? '' : ` (looked in ${where})`}. Check the id and the store, or create the session first.`,
    );
    this.name = 'SessionNotFoundError';
    this.sessionId = sessionId;
  }
}
