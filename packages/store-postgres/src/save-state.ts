import {
  advanceSummary,
  type SessionEvent,
  SessionConflictError,
  SessionLeaseLostError,
  type SessionState,
  SessionStorageError,
  type SessionSummary,
  summaryOf,
} from '@agent-core/core';
import type { SessionStatements } from './session-statements.js';
import type { StoreConnection } from './store-connection.js';
import { fromStoredJson, storedJson, textColumn } from './stored-json.js';
import type { SummaryCache } from './summary-cache.js';

/** A save as the store hands it over, its JSON already made (outside any transaction). */
export interface SaveRequest {
  state: SessionState;
  expectedVersion: number;
  token: string | undefined;
}

const maxAttempts = 50;

/**
 * Saves a snapshot with one conditional statement: it writes only if the row
 * still has `expectedVersion`, the lease token passed (if any) and the log
 * end the summary was computed for. The summary is `summaryOf` the state,
 * advanced with `advanceSummary` over the log records after the state's
 * `lastSeq`, as core's memory store computes it. Returns the bytes of JSON sent.
 */
export async function saveState(
  connection: StoreConnection,
  statements: SessionStatements,
  known: SummaryCache,
  request: SaveRequest,
): Promise<{ version: number; bytes: number }> {
  const { state, expectedVersion, token } = request;
  const version = expectedVersion + 1;
  const stored = { ...state, version };
  const stateJson = storedJson(stored);
  const metadataJson = storedJson(state.metadata);
  const bytes = Buffer.byteLength(stateJson) + Buffer.byteLength(metadataJson);
  const base = summaryOf(stored);
  const values = (summary: SessionSummary) => [
    state.id,
    version,
    stateJson,
    summary.status,
    textColumn(summary.createdAt),
    textColumn(summary.updatedAt),
    metadataJson,
    summary.messageCount,
    textColumn(summary.title),
    summary.pendingApprovalCount,
  ];

  if (expectedVersion === 0) {
    const { rows } = await connection.query({ text: statements.create, values: values(base) });
    if (rows.length === 0) throw await conflict(connection, statements, state.id, expectedVersion);
    known.set(state.id, { summary: base, logEnd: 0 });
    return { version, bytes };
  }

  let summary = base;
  let logEnd = known.get(state.id)?.logEnd ?? state.lastSeq;
  if (logEnd !== state.lastSeq) ({ summary, logEnd } = await advanced(connection, statements, state, base));
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const { rows } = await connection.query({
      text: statements.save,
      values: [...values(summary), expectedVersion, logEnd, token ?? null],
    });
    if (rows.length === 1) {
      known.set(state.id, { summary, logEnd });
      return { version, bytes };
    }
    const current = (
      await connection.query({ text: statements.saveState, values: [state.id] }, { idempotent: true })
    ).rows[0];
    if (current === undefined) throw new SessionConflictError(state.id, expectedVersion, undefined);
    if (token !== undefined && current.lease_token !== token) {
      throw new SessionLeaseLostError(
        state.id,
        `its lease token is ${token}, and token ${String(current.lease_token)} was granted since`,
      );
    }
    if (Number(current.version) !== expectedVersion) {
      throw new SessionConflictError(state.id, expectedVersion, Number(current.version));
    }
    // Only the log moved: the summary takes in the records after the state's lastSeq, as of now.
    ({ summary, logEnd } = await advanced(connection, statements, state, base));
  }
  throw new SessionStorageError(
    connection.where,
    'locked',
    `session '${state.id}''s log grew ${maxAttempts} times while this save was computing its summary`,
  );
}

/** The summary of a state advanced over the log records after its `lastSeq`, and the log end it was computed for. */
async function advanced(
  connection: StoreConnection,
  statements: SessionStatements,
  state: SessionState,
  base: SessionSummary,
): Promise<{ summary: SessionSummary; logEnd: number }> {
  const { rows } = await connection.query(
    { text: statements.eventsAfter, values: [state.id, state.lastSeq] },
    { idempotent: true },
  );
  const events = rows.map((row) => fromStoredJson(row.event) as SessionEvent);
  const last = rows.at(-1);
  let logEnd = last === undefined ? state.lastSeq : Number(last.seq);
  if (last === undefined) {
    // The log ends at or before the state's lastSeq: the row's own log end is the one to match.
    const current = (
      await connection.query({ text: statements.saveState, values: [state.id] }, { idempotent: true })
    ).rows[0];
    if (current !== undefined) logEnd = Number(current.log_end_seq);
  }
  return { summary: advanceSummary({ ...base }, events), logEnd };
}

async function conflict(
  connection: StoreConnection,
  statements: SessionStatements,
  id: string,
  expectedVersion: number,
): Promise<SessionConflictError> {
  const current = (await connection.query({ text: statements.saveState, values: [id] }, { idempotent: true }))
    .rows[0];
  return new SessionConflictError(
    id,
    expectedVersion,
    current === undefined ? undefined : Number(current.version),
  );
}
