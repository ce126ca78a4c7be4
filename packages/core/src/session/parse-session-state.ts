import { InvalidSessionStateError } from '../errors/invalid-session-state-error.js';
import { SessionCorruptError } from '../errors/session-corrupt-error.js';
import { isPlainValidMessage } from './plain-message-check.js';
import { sessionDepthProblem } from './session-depth-problem.js';
import type { SessionEvent } from './session-event.js';
import { type SessionState, sessionSchemaVersion } from './session-state.js';

/** Turns a stored session of schema version `n` into one of version `n + 1`. */
export type SessionMigration = (raw: Record<string, unknown>) => Record<string, unknown>;

/**
 * Migrations by the version they upgrade from. Empty while version 1 is the
 * only version agent-core has written; a later format adds its step here.
 */
export const sessionMigrations: Readonly<Record<number, SessionMigration>> = {};

/** Options of `parseSessionState`. */
export interface ParseSessionOptions {
  /** Names the file or key the data came from, for error messages. */
  source?: string;
  /** Replaces the built-in migrations (tests, or an app's own older formats). */
  migrations?: Readonly<Record<number, SessionMigration>>;
}

type SchemaModule = typeof import('./session-schema.js');
let schemaModule: Promise<SchemaModule> | undefined;

/** The zod schema of `SessionState`, loaded on first use so importing core stays cheap. */
export async function loadSessionStateSchema(): Promise<SchemaModule['sessionStateSchema']> {
  schemaModule ??= import('./session-schema.js');
  return (await schemaModule).sessionStateSchema;
}

/**
 * Validates stored session data (already `JSON.parse`d) and migrates an older
 * `schemaVersion` to the current one. Throws `SessionCorruptError` naming the
 * source and the field for anything else, including a newer schema version
 * and a value nested past the depth limits (see `maxSessionMetadataDepth`).
 * Fields it does not know are kept as they are.
 */
export async function parseSessionState(
  raw: unknown,
  options: ParseSessionOptions = {},
): Promise<SessionState> {
  const source = options.source ?? 'the stored session';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SessionCorruptError(source, 'expected a JSON object.');
  }
  // Before anything walks the data: a value nested thousands of levels deep would overflow the stack.
  const tooDeep = sessionDepthProblem(raw, { metadata: true });
  if (tooDeep !== undefined)
    throw new SessionCorruptError(source, `${tooDeep.detail}, so no agent-core wrote it.`, {
      field: tooDeep.field,
    });
  let data = raw as Record<string, unknown>;
  const found = data.schemaVersion;
  if (typeof found !== 'number' || !Number.isInteger(found) || found < 0) {
    throw new SessionCorruptError(
      source,
      `expected an integer schemaVersion, got ${JSON.stringify(found)}.`,
      {
        field: 'schemaVersion',
      },
    );
  }
  if (found > sessionSchemaVersion) {
    throw new SessionCorruptError(
      source,
      `schemaVersion ${found} was written by a newer agent-core (this one reads up to ${sessionSchemaVersion}). Upgrade @agent-core/core to load it; the data was left untouched.`,
      { field: 'schemaVersion', code: 'session_schema_unsupported' },
    );
  }
  const migrations = options.migrations ?? sessionMigrations;
  for (let version = found; version < sessionSchemaVersion; version++) {
    const migrate = migrations[version];
    if (migrate === undefined) {
      throw new SessionCorruptError(
        source,
        `schemaVersion ${version} is not one this agent-core can migrate (it reads ${sessionSchemaVersion}).`,
        { field: 'schemaVersion', code: 'session_schema_unsupported' },
      );
    }
    data = { ...migrate(data), schemaVersion: version + 1 };
  }
  const schema = await loadSessionStateSchema();
  const checked = schema.safeParse(data);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const field = issue === undefined ? undefined : issue.path.map(String).join('.');
    throw new SessionCorruptError(source, `${issue?.message ?? 'invalid data'}.`, { field });
  }
  // The parsed value keeps unknown fields (loose objects) and fills defaults of fields added later.
  return checked.data as unknown as SessionState;
}

/**
 * Checks a state before a store writes it, with the schema `parseSessionState`
 * reads it with, so what is written can be read back: metadata nested at
 * most `maxSessionMetadataDepth` levels, every other part at most
 * `maxSessionPartDepth`. Throws `InvalidSessionStateError` naming the first
 * bad field; resolves otherwise.
 * Stores call it first in `save`.
 */
export async function checkSessionState(state: SessionState): Promise<void> {
  const id = typeof state?.id === 'string' ? state.id : String(state?.id);
  if (typeof state !== 'object' || state === null || Array.isArray(state))
    throw new InvalidSessionStateError(id, 'a session state is a JSON object.');
  if (state.schemaVersion !== sessionSchemaVersion)
    throw new InvalidSessionStateError(
      id,
      `this agent-core writes schemaVersion ${sessionSchemaVersion}, got ${JSON.stringify(state.schemaVersion)}.`,
      'schemaVersion',
    );
  checkSessionDepth(state, id);
  const schema = await loadSessionStateSchema();
  // The messages core and its providers make are checked by hand, in a fraction of the schema's
  // time, and the rest of the state by the schema; anything the quick check is unsure of, and
  // every failure, goes through the whole schema, so what passes and every error are as before.
  const messages = (state as { messages?: unknown }).messages;
  if (Array.isArray(messages) && allPlainValid(messages)) {
    if (schema.safeParse({ ...state, messages: [] }).success) return;
  }
  const checked = schema.safeParse(state);
  if (checked.success) return;
  const issue = checked.error.issues[0];
  throw new InvalidSessionStateError(
    id,
    `${issue?.message ?? 'invalid data'}.`,
    issue === undefined ? undefined : issue.path.map(String).join('.'),
  );
}

/**
 * The depth part of `checkSessionState` alone, for a caller that must refuse
 * such a state before it does anything else and leaves the rest to the
 * store: `InvalidSessionStateError` naming the field and the limit.
 */
export function checkSessionDepth(state: SessionState, id: string = state.id): void {
  const tooDeep = sessionDepthProblem(state, { metadata: true });
  if (tooDeep !== undefined) throw new InvalidSessionStateError(id, `${tooDeep.detail}.`, tooDeep.field);
}

/** True when every entry, holes included (`every` would skip them), passes the quick message check. */
function allPlainValid(messages: readonly unknown[]): boolean {
  for (let index = 0; index < messages.length; index++)
    if (!isPlainValidMessage(messages[index])) return false;
  return true;
}

/**
 * Checks log entries before a store appends them, so what is appended can be
 * replayed: an array of event objects with a string `type`, each field nested
 * at most `maxSessionPartDepth` levels. Throws `InvalidSessionStateError`
 * naming the entry (`entries.2.message`); nothing may be written then. Stores
 * call it first in `append`.
 */
export function checkSessionEvents(sessionId: string, entries: readonly SessionEvent[]): void {
  if (!Array.isArray(entries))
    throw new InvalidSessionStateError(
      sessionId,
      `log entries are an array of SessionEvent, got ${entries === null ? 'null' : typeof entries}.`,
      'entries',
    );
  for (let index = 0; index < entries.length; index++) {
    const entry: unknown = entries[index];
    if (
      typeof entry !== 'object' ||
      entry === null ||
      Array.isArray(entry) ||
      typeof (entry as { type?: unknown }).type !== 'string'
    )
      throw new InvalidSessionStateError(
        sessionId,
        `log entry ${index} is not an event: a JSON object with a string type.`,
        `entries.${index}`,
      );
    const tooDeep = sessionDepthProblem(entry);
    if (tooDeep !== undefined)
      throw new InvalidSessionStateError(
        sessionId,
        `log entry ${index} cannot be appended: ${tooDeep.detail}.`,
        `entries.${index}.${tooDeep.field}`,
      );
  }
}
