import { AgentError } from './agent-error.js';

/**
 * A session is already running a prompt: in this process (a second prompt
 * before the first ended), or in another one that holds its lease (`holder`
 * says which, as the store describes it). One prompt runs at a time per session.
 */
export class SessionBusyError extends AgentError {
  readonly sessionId: string;
  /** Who runs the session elsewhere, e.g. `process 4242 on host web-1 (since …)`; absent for this process. */
  readonly holder: string | undefined;

  constructor(sessionId: string, holder?: string) {
    super(
      'session_busy',
      holder === undefined
        ? `Session '${sessionId}' is already running a prompt. Await its result(), cancel it, or steer it; one prompt runs at a time per session.`
        : `Session '${sessionId}' is running a prompt in another process: ${holder}. Nothing ran here. Wait for that run to end, then load the session again (manager.close(id), then manager.get(id)) and retry.`,
    );
    this.name = 'SessionBusyError';
    this.sessionId = sessionId;
    this.holder = holder;
  }
}
