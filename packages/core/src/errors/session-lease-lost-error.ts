import { AgentError } from './agent-error.js';

/**
 * A write made under a session's run lease that the store no longer honours:
 * the holder stopped renewing it (a frozen or suspended process, a long
 * pause), it lapsed, and another process took the session over. Nothing was
 * written; the run that held it ends with this error. Load the session again
 * to see what the new holder did.
 */
export class SessionLeaseLostError extends AgentError {
  readonly sessionId: string;

  constructor(sessionId: string, detail?: string) {
    super(
      'session_lease_lost',
      `This process lost its lease on session '${sessionId}'${detail === undefined ? '' : ` (${detail})`}: it stopped renewing it for longer than the lease lasts, and another process has taken the session over. Nothing more was written here. Load the session again (manager.close(id), then manager.get(id)) to see how it stands.`,
    );
    this.name = 'SessionLeaseLostError';
    this.sessionId = sessionId;
  }
}
