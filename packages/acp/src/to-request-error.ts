import { RequestError } from '@agentclientprotocol/sdk';
import { AgentError } from '@agent-core/core';

/**
 * A failure as the JSON-RPC error the editor gets: an unknown session is
 * `-32002` with its id, a session another prompt or process is running is an
 * invalid request, bad configuration is invalid params, anything else an
 * internal error. The message is always the one that says what to do, and
 * `data.code` keeps agent-core's error code.
 */
export function toRequestError(error: unknown, sessionId?: string): RequestError {
  if (error instanceof RequestError) return error;
  if (!AgentError.isInstance(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return new RequestError(-32603, message);
  }
  const data = { code: error.code, ...(sessionId === undefined ? {} : { sessionId }) };
  switch (error.code) {
    case 'session_not_found':
      return new RequestError(-32002, error.message, data);
    case 'session_busy':
    case 'agent_busy':
    case 'session_conflict':
    case 'session_lease_lost':
      return new RequestError(-32600, error.message, data);
    case 'invalid_config':
    case 'invalid_session_id':
    case 'invalid_input':
      return new RequestError(-32602, error.message, data);
    default:
      return new RequestError(-32603, error.message, data);
  }
}

/** The error for a session id this server does not serve. */
export function unknownSession(sessionId: string): RequestError {
  return new RequestError(
    -32002,
    `Unknown session '${sessionId}': it is not open in this agent. Open it with session/load or session/resume, or start one with session/new.`,
    { sessionId },
  );
}
