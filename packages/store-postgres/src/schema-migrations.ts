/** One step of the store's schema: applied once per schema, in order, and recorded in `agent_core_schema_version`. */
export interface SchemaMigration {
  version: number;
  description: string;
  /** The statements, given the quoted schema name. */
  statements(schema: string): string[];
}

/**
 * The store's tables, in order. A new version of the package adds a step at
 * the end and never changes one that shipped.
 *
 * - `agent_core_sessions`: one row per session. `state` is the snapshot (its
 *   jsonb, see `storedJson`), `version` counts saves; the summary columns
 *   (status, times, metadata, message count, title, approvals waiting) are what
 *   `list` reads, written in the same statement as the save or append that
 *   changes them; `log_end_seq` is the last seq of the log; the lease columns
 *   hold the run lease: its fencing token (from one sequence, so it only goes
 *   up), its expiry on the server's clock (null once released) and its holder.
 *   Ids and times are `COLLATE "C"`, so they order as JavaScript compares strings.
 * - `agent_core_session_events`: the append-only log, one row per entry, keyed by (session, seq).
 * - `agent_core_session_appends`: one row per append, keyed by (session, operation id), so a retried append is found and not written twice.
 * - `agent_core_append(items)`: appends a batch of appends, each to its own
 *   session, in one statement: per item it locks the session's row (in id
 *   order, so two batches never deadlock), and answers `not_found`, `done`
 *   (the operation was appended before: its seqs), `lease_lost`, `moved` (the
 *   log or the version is not the one the caller computed the summary from:
 *   the current summary, to compute again) or `appended`.
 */
export const schemaMigrations: readonly SchemaMigration[] = [
  {
    version: 1,
    description: 'sessions, events log, appends, lease tokens, agent_core_append',
    statements: (schema) => [
      `CREATE TABLE ${schema}.agent_core_sessions (
        id text COLLATE "C" PRIMARY KEY,
        version integer NOT NULL,
        state jsonb NOT NULL,
        status text NOT NULL,
        created_at text NOT NULL,
        updated_at text COLLATE "C" NOT NULL,
        metadata jsonb NOT NULL,
        message_count integer NOT NULL,
        title text NOT NULL,
        pending_approval_count integer NOT NULL,
        log_end_seq bigint NOT NULL DEFAULT 0,
        lease_token bigint,
        lease_expires_at timestamptz,
        lease_holder text
      ) WITH (fillfactor = 80)`,
      `CREATE INDEX agent_core_sessions_recent ON ${schema}.agent_core_sessions (updated_at DESC, id)`,
      `CREATE TABLE ${schema}.agent_core_session_events (
        session_id text COLLATE "C" NOT NULL,
        seq bigint NOT NULL,
        operation_id text NOT NULL,
        event jsonb NOT NULL,
        PRIMARY KEY (session_id, seq)
      )`,
      `CREATE TABLE ${schema}.agent_core_session_appends (
        session_id text COLLATE "C" NOT NULL,
        operation_id text NOT NULL,
        first_seq bigint NOT NULL,
        last_seq bigint NOT NULL,
        PRIMARY KEY (session_id, operation_id)
      )`,
      `CREATE SEQUENCE ${schema}.agent_core_lease_tokens`,
      appendFunction(schema),
    ],
  },
];

/** The schema version this package writes. */
export const currentSchemaVersion = schemaMigrations.length;

function appendFunction(schema: string): string {
  return `CREATE FUNCTION ${schema}.agent_core_append(items jsonb)
  RETURNS TABLE (item_index integer, outcome text, item_first_seq bigint, item_last_seq bigint, current_summary jsonb)
  LANGUAGE plpgsql AS $append$
  DECLARE
    entry record;
    stored record;
    previous record;
    appended_count integer;
  BEGIN
    FOR entry IN
      SELECT * FROM jsonb_to_recordset(items) AS item(
        i integer, id text, op text, after_seq bigint, version integer, token bigint, events jsonb,
        status text, updated_at text, message_count integer, title text, pending integer)
      ORDER BY item.id COLLATE "C"
    LOOP
      item_index := entry.i;
      item_first_seq := NULL;
      item_last_seq := NULL;
      current_summary := NULL;
      SELECT s.* INTO stored FROM ${schema}.agent_core_sessions s WHERE s.id = entry.id FOR UPDATE;
      IF NOT FOUND THEN
        outcome := 'not_found';
        RETURN NEXT;
        CONTINUE;
      END IF;
      SELECT a.first_seq, a.last_seq INTO previous FROM ${schema}.agent_core_session_appends a
        WHERE a.session_id = entry.id AND a.operation_id = entry.op;
      IF FOUND THEN
        outcome := 'done';
        item_first_seq := previous.first_seq;
        item_last_seq := previous.last_seq;
        RETURN NEXT;
        CONTINUE;
      END IF;
      IF entry.token IS NOT NULL AND stored.lease_token IS DISTINCT FROM entry.token THEN
        outcome := 'lease_lost';
        current_summary := jsonb_build_object('leaseToken', stored.lease_token::text);
        RETURN NEXT;
        CONTINUE;
      END IF;
      IF entry.after_seq IS NULL OR stored.log_end_seq <> entry.after_seq OR stored.version <> entry.version THEN
        outcome := 'moved';
        current_summary := jsonb_build_object(
          'status', stored.status, 'createdAt', stored.created_at, 'updatedAt', stored.updated_at,
          'version', stored.version, 'metadata', stored.metadata, 'messageCount', stored.message_count,
          'title', stored.title, 'pendingApprovalCount', stored.pending_approval_count,
          'logEnd', stored.log_end_seq);
        RETURN NEXT;
        CONTINUE;
      END IF;
      appended_count := jsonb_array_length(entry.events);
      INSERT INTO ${schema}.agent_core_session_events (session_id, seq, operation_id, event)
        SELECT entry.id, entry.after_seq + element.ordinality, entry.op, element.value
        FROM jsonb_array_elements(entry.events) WITH ORDINALITY AS element;
      INSERT INTO ${schema}.agent_core_session_appends (session_id, operation_id, first_seq, last_seq)
        VALUES (entry.id, entry.op, entry.after_seq + 1, entry.after_seq + appended_count);
      UPDATE ${schema}.agent_core_sessions SET
        log_end_seq = entry.after_seq + appended_count,
        status = entry.status,
        updated_at = entry.updated_at,
        message_count = entry.message_count,
        title = entry.title,
        pending_approval_count = entry.pending
        WHERE id = entry.id;
      outcome := 'appended';
      item_first_seq := entry.after_seq + 1;
      item_last_seq := entry.after_seq + appended_count;
      RETURN NEXT;
    END LOOP;
  END
  $append$`;
}
