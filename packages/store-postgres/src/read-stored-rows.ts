import {
  AgentError,
  parseSessionState,
  SessionCorruptError,
  type SessionEvent,
  type SessionState,
} from '@agent-core/core';
import { fromStoredJson } from './stored-json.js';

/** What to do about a row that cannot be read: nothing in the store can mend it. */
const restoreAdvice = "Restore the session's row from a backup, or delete the session (store.delete(id)).";

/**
 * The session state of a loaded row, checked with core's `parseSessionState`
 * (the row's `version` is the one saves compare with). A state that is not
 * JSON, breaks the schema or is nested past core's depth limits is
 * `SessionCorruptError` naming `source` and the field, and saying what to do.
 */
export async function readStoredState(row: Record<string, unknown>, source: string): Promise<SessionState> {
  let raw: unknown;
  try {
    raw = fromStoredJson(row.state);
  } catch (error) {
    // A jsonb string that is not JSON text: no agent-core wrote it.
    throw new SessionCorruptError(
      source,
      `its state is not valid JSON (${(error as Error).message}). ${restoreAdvice}`,
      { cause: error },
    );
  }
  if (raw !== null && typeof raw === 'object') (raw as Record<string, unknown>).version = Number(row.version);
  try {
    return await parseSessionState(raw, { source });
  } catch (error) {
    // A newer schema version already says to upgrade; any other failure passes as it is.
    if (!AgentError.isInstance(error) || error.code !== 'session_corrupt') throw error;
    const field = (error as SessionCorruptError).field;
    const prefix = `Session data in ${source} cannot be read${field === undefined ? '' : ` (field '${field}')`}: `;
    const detail = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    throw new SessionCorruptError(source, `${detail} ${restoreAdvice}`, { field, cause: error });
  }
}

/** The event of a log row; one that is not JSON (written by another program) is `SessionCorruptError` naming its seq. */
export function readStoredEvent(row: Record<string, unknown>, source: string): SessionEvent {
  try {
    return fromStoredJson(row.event) as SessionEvent;
  } catch (error) {
    throw new SessionCorruptError(
      source,
      `record ${String(row.seq)} is not valid JSON (${(error as Error).message}). ${restoreAdvice}`,
      { cause: error },
    );
  }
}
