/** The columns a summary is made of, as stored (status not adjusted for leases), with the log end. */
const storedSummary =
  'status, created_at, updated_at, version, metadata, message_count, title, pending_approval_count, log_end_seq';

/**
 * The status `list` shows: every run holds the session's lease, so a session
 * stored `running` whose lease has lapsed, was given back or was never taken
 * has no live process running it: it is `interrupted`, as it will be once
 * loaded. Times are the server's clock, so machines with clocks apart agree on it.
 */
const listedStatus = `CASE WHEN status = 'running'
  AND (lease_expires_at IS NULL OR lease_expires_at <= now()) THEN 'interrupted' ELSE status END AS status`;

const listed = `id, ${listedStatus}, created_at, updated_at, version, metadata, message_count, title, pending_approval_count`;

/** The SQL of every operation, for one schema (given quoted). */
export function sessionStatements(schema: string) {
  const sessions = `${schema}.agent_core_sessions`;
  const events = `${schema}.agent_core_session_events`;
  const appends = `${schema}.agent_core_session_appends`;
  const interval = (parameter: string) => `now() + ${parameter}::double precision * interval '1 millisecond'`;
  return {
    load: `SELECT state, ${storedSummary} FROM ${sessions} WHERE id = $1`,
    create: `INSERT INTO ${sessions}
      (id, version, state, status, created_at, updated_at, metadata, message_count, title, pending_approval_count)
      VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7::jsonb, $8, $9, $10)
      ON CONFLICT (id) DO NOTHING RETURNING version`,
    save: `UPDATE ${sessions} SET version = $2, state = $3::jsonb, status = $4, created_at = $5, updated_at = $6,
      metadata = $7::jsonb, message_count = $8, title = $9, pending_approval_count = $10
      WHERE id = $1 AND version = $11 AND log_end_seq = $12 AND ($13::bigint IS NULL OR lease_token = $13::bigint)
      RETURNING version`,
    /** Why a save matched no row. */
    saveState: `SELECT version, log_end_seq, lease_token::text AS lease_token FROM ${sessions} WHERE id = $1`,
    eventsAfter: `SELECT seq, event FROM ${events} WHERE session_id = $1 AND seq > $2 ORDER BY seq`,
    /** One row with null columns when the session exists with no records from `$2`; none when it does not exist. */
    read: `SELECT e.seq, e.operation_id, e.event FROM ${sessions} s
      LEFT JOIN ${events} e ON e.session_id = s.id AND e.seq >= $2
      WHERE s.id = $1 ORDER BY e.seq`,
    append: `SELECT item_index, outcome, item_first_seq, item_last_seq, current_summary
      FROM ${schema}.agent_core_append($1::jsonb)`,
    listFirst: `SELECT ${listed} FROM ${sessions} ORDER BY updated_at DESC, id LIMIT $1`,
    // Two index ranges rather than one OR, so a page deep in 100,000 sessions reads only its own rows.
    listAfter: `(SELECT ${listed} FROM ${sessions} WHERE updated_at = $1 AND id > $2 ORDER BY id LIMIT $3)
      UNION ALL
      (SELECT ${listed} FROM ${sessions} WHERE updated_at < $1 ORDER BY updated_at DESC, id LIMIT $3)
      ORDER BY updated_at DESC, id LIMIT $3`,
    deleteSession: `DELETE FROM ${sessions} WHERE id = $1 RETURNING id`,
    deleteEvents: `DELETE FROM ${events} WHERE session_id = ANY($1::text[])`,
    deleteAppends: `DELETE FROM ${appends} WHERE session_id = ANY($1::text[])`,
    lease: `UPDATE ${sessions} SET lease_token = nextval('${schema}.agent_core_lease_tokens'),
      lease_expires_at = ${interval('$2')}, lease_holder = $3
      WHERE id = $1 AND (lease_expires_at IS NULL OR lease_expires_at <= now())
      RETURNING lease_token::text AS lease_token, ${storedSummary}`,
    leaseHolder: `SELECT lease_holder, lease_expires_at FROM ${sessions} WHERE id = $1`,
    renew: `UPDATE ${sessions} SET lease_expires_at = ${interval('$3')}
      WHERE id = $1 AND lease_token = $2::bigint AND lease_expires_at IS NOT NULL RETURNING id`,
    release: `UPDATE ${sessions} SET lease_expires_at = NULL, lease_holder = NULL
      WHERE id = $1 AND lease_token = $2::bigint`,
    /** Sessions not updated since `$1` whose run lease is not live, oldest first, locked for deletion. */
    pruneBatch: `WITH doomed AS (
        SELECT id FROM ${sessions}
        WHERE updated_at < $1 AND (lease_expires_at IS NULL OR lease_expires_at <= now())
        ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED
      )
      DELETE FROM ${sessions} USING doomed WHERE ${sessions}.id = doomed.id RETURNING ${sessions}.id`,
  };
}

/** The statements of one schema. */
export type SessionStatements = ReturnType<typeof sessionStatements>;
