import { join } from 'node:path';
import {
  AgentError,
  advanceSummary,
  type Logger,
  type SessionEvent,
  type SessionLogRecord,
  type SessionState,
} from '@agent-core/core';
import { readEventsLog } from './events-log.js';
import type { FileOperations } from './file-operations.js';
import { parseLogLines } from './log-lines.js';
import { removeSummaryFile, summaryFileName, writeSummaryFile } from './session-summary-file.js';
import {
  parseSnapshot,
  readSnapshot,
  type SnapshotFacts,
  snapshotFacts,
  snapshotFileName,
} from './snapshot-file.js';
import { errorCode, storageError } from './storage-error.js';
import {
  changesStatus,
  copySummary,
  summaryFileOf,
  type TrackedSession,
  trackSession,
} from './tracked-session.js';

/** What a `SessionTracker` works with: its store's files, root, logger and byte counter. */
export interface TrackerOptions {
  root: string;
  files: FileOperations;
  logger: Logger;
  counter: { bytesWritten: number };
  /** Whether another live process runs the session in `folder` now (then a torn last line may be its append in progress). */
  heldElsewhere(folder: string): Promise<boolean>;
}

/** The events log's name in a session folder. */
export const logFileName = 'events.jsonl';

/**
 * What a `FileSessionStore` keeps in memory about the sessions it reads and
 * writes: each one's snapshot facts, log index and summary (see
 * `TrackedSession`), followed through every save and append so no log is
 * replayed for a write or a listing, and read again from the files when they
 * no longer have the lengths it knows (another process wrote). It writes
 * `summary.json` with each save and with each run's start and end.
 */
export class SessionTracker {
  readonly #options: TrackerOptions;
  readonly #tracked = new Map<string, TrackedSession>();
  /** Snapshots read or written, so a read that follows a load does not parse it again. */
  readonly #snapshots = new Map<string, SnapshotFacts>();

  constructor(options: TrackerOptions) {
    this.#options = options;
  }

  /** What is tracked of a session, current or not. */
  get(id: string): TrackedSession | undefined {
    return this.#tracked.get(id);
  }

  /** Drops what is known of a session: the next operation reads its files again. */
  forget(id: string): void {
    this.#tracked.delete(id);
    this.#snapshots.delete(id);
  }

  /** The length of a session's log now (0 when there is none). */
  logSize(folder: string): Promise<number> {
    return this.#size(join(folder, logFileName));
  }

  /** A snapshot just loaded: what is tracked of an older one is dropped, and a read after it needs no parse. */
  loaded(id: string, state: SessionState, bytes: number): void {
    const tracked = this.#tracked.get(id);
    if (tracked !== undefined && tracked.snapshot.bytes !== bytes) this.#tracked.delete(id);
    if (this.#snapshots.get(id)?.bytes !== bytes) this.#snapshots.set(id, snapshotFacts(state, bytes));
  }

  /** The tracked session, read again when the log's length is not the one it knows: another process appended since. */
  async current(id: string, folder: string): Promise<TrackedSession> {
    const known = this.#tracked.get(id);
    if (known !== undefined && (await this.logSize(folder)) === known.log.bytes) return known;
    return (await this.rebuild(id, folder)).tracked;
  }

  /**
   * Reads the log whole (and the snapshot, unless known) and tracks the
   * session from them; a torn last line is set aside when no other live
   * process runs the session. Throws `SessionCorruptError` for damage a load cannot go past.
   */
  async rebuild(
    id: string,
    folder: string,
  ): Promise<{ tracked: TrackedSession; records: SessionLogRecord[] }> {
    const facts = await this.#snapshotFacts(id, folder);
    const path = join(folder, logFileName);
    let log: Awaited<ReturnType<typeof readEventsLog>>;
    try {
      log = await readEventsLog(path, this.#options.files, {
        sessionId: id,
        snapshotLastSeq: facts.lastSeq,
        logger: this.#options.logger,
        counter: this.#options.counter,
        mayCut: async () => !(await this.#options.heldElsewhere(folder)),
      });
    } catch (error) {
      this.#tracked.delete(id);
      if (AgentError.isInstance(error)) throw error;
      throw storageError(path, error);
    }
    const tracked = trackSession(facts, log.index, log.records);
    this.#tracked.set(id, tracked);
    return { tracked, records: log.records };
  }

  /**
   * The seq of the last record of a session's log: what this store tracks
   * when the log still has the length it knows, else the last complete line's.
   * 0 for an empty or missing log, or one whose last line is not a record.
   */
  async logEnd(id: string, folder: string): Promise<number> {
    const known = this.#tracked.get(id);
    if (known !== undefined && (await this.logSize(folder)) === known.log.bytes) return known.log.lastSeq;
    const path = join(folder, logFileName);
    let bytes: Buffer;
    try {
      bytes = await this.#options.files.readFile(path);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return 0;
      throw storageError(path, error);
    }
    const end = bytes.lastIndexOf(0x0a);
    const last = parseLogLines(bytes.subarray(bytes.lastIndexOf(0x0a, end - 1) + 1, end + 1)).at(-1);
    return last?.record?.seq ?? 0;
  }

  /**
   * Follows a snapshot just written and writes `summary.json` after it (never
   * before: a crash between the two leaves a summary of a version that was
   * stored). A failure only warns and removes the older summary: the save stands.
   */
  async saved(folder: string, stored: SessionState, bytes: number): Promise<void> {
    const { files, logger } = this.#options;
    const id = stored.id;
    const facts = snapshotFacts(stored, bytes);
    this.#snapshots.set(id, facts);
    let tracked: TrackedSession;
    try {
      const known = this.#tracked.get(id);
      if (
        known !== undefined &&
        known.log.lastSeq === stored.lastSeq &&
        (await files.size(join(folder, logFileName))) === known.log.bytes
      )
        tracked = { snapshot: facts, log: known.log, summary: copySummary(facts.summary) };
      else {
        // Rare: the log grew elsewhere, or the state does not include all of it. Read, never cut: no lease is needed to save.
        const log = await readEventsLog(join(folder, logFileName), files, {
          sessionId: id,
          snapshotLastSeq: stored.lastSeq,
          logger,
        });
        tracked = trackSession(facts, log.index, log.records);
      }
    } catch (error) {
      this.#tracked.delete(id);
      await removeSummaryFile(files, folder);
      logger.warn(
        'a session summary could not be brought up to date; list reads the snapshot and the log instead',
        {
          path: join(folder, summaryFileName),
          error: error instanceof Error ? error.message : String(error),
        },
      );
      return;
    }
    await this.track(folder, id, tracked);
  }

  /**
   * Folds an append this store just made into its tracked session: the log's
   * new length and last seq, the summary. A run's start or end rewrites
   * `summary.json` at once (no fsync: it is derived data); the messages in
   * between are counted from the log by whoever lists.
   */
  async appended(folder: string, tracked: TrackedSession, entries: readonly SessionEvent[]): Promise<void> {
    advanceSummary(tracked.summary, entries);
    if (changesStatus(entries)) await this.#writeSummary(folder, tracked);
  }

  /** Tracks `tracked` as session `id` and writes its `summary.json`. */
  async track(folder: string, id: string, tracked: TrackedSession): Promise<void> {
    this.#tracked.set(id, tracked);
    await this.#writeSummary(folder, tracked);
  }

  async #writeSummary(folder: string, tracked: TrackedSession): Promise<void> {
    const { files, logger, counter } = this.#options;
    counter.bytesWritten += await writeSummaryFile(files, folder, summaryFileOf(tracked), logger);
  }

  /** The snapshot's facts: the ones known while `session.json` keeps their length, else read and parsed. */
  async #snapshotFacts(id: string, folder: string): Promise<SnapshotFacts> {
    const path = join(folder, snapshotFileName);
    const known = this.#snapshots.get(id);
    if (known !== undefined && (await this.#size(path)) === known.bytes) return known;
    const bytes = await readSnapshot(this.#options.files, folder, id, this.#options.root);
    const facts = snapshotFacts(await parseSnapshot(bytes, path), bytes.length);
    this.#snapshots.set(id, facts);
    return facts;
  }

  async #size(path: string): Promise<number> {
    try {
      return await this.#options.files.size(path);
    } catch (error) {
      throw storageError(path, error);
    }
  }
}
