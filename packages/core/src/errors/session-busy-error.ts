import { AgentError } from './agent-error.js';

/** A session got a second prompt while its first one is still running; one prompt runs at a time per session. */
export class SessionBusyError extends AgentError {
  readonly sessionId: string;

  constructor(sessionId: string) {
    super(
      'session_busy',
      `Session '${sessionId}' is already running a prompt. Await its result(), cancel it, or steer it; one prompt runs at a time per session.`,
    );
    this.name = 'SessionBusyError';
    this.sessionId = sessionId;
  }
}
