import { hostname } from 'node:os';
import { basename } from 'node:path';
import {
  ConfigError,
  type Logger,
  SessionBusyError,
  SessionLeaseLostError,
  stderrLogger,
} from '@agent-core/core';
import { type FileOperations, nodeFileOperations } from './file-operations.js';
import { SessionLock } from './session-lock.js';

/** Options of `new FileSessionStore(...)`. */
export interface FileSessionStoreOptions {
  /** The folder that holds one folder per session; created when first needed. */
  root: string;
  /** Warnings about damaged files, broken locks and lost leases go here. Default: `stderrLogger('warn')` from core. */
  logger?: Logger;
  /** The file system calls; default the real one. */
  operations?: Partial<FileOperations>;
  /**
   * How long a save waits for another process holding the session's lock
   * before it throws `SessionStorageError` (`session_storage_locked`). Default 10 000.
   */
  lockTimeoutMs?: number;
  /**
   * A run's lease (`<root>/<id>/.run`) not renewed for this long is taken for
   * a crashed holder's, even from another host. The holder renews it every
   * third of this, so a live one never gets there. Default 30 000.
   */
  leaseStaleMs?: number;
  /**
   * The pid this store's locks and leases are taken as. Default
   * `process.pid`. For tests that stand for another process: a store given the
   * pid of a process that has exited holds leases that every other store takes
   * for a crashed holder's.
   */
  processId?: number;
}

/** What a `FileSessionStore` is made of, from its options. */
export interface StoreParts {
  logger: Logger;
  files: FileOperations;
  /** `.lock`: the compare-and-swap of saves. */
  lock: SessionLock;
  /** `.run`: the run lease, with its heartbeat. */
  leases: SessionLock;
}

/** Checks the options (a `TypeError` naming the bad one) and builds the store's parts. */
export function storeParts(options: FileSessionStoreOptions): StoreParts {
  if (typeof options?.root !== 'string' || options.root === '') {
    throw new TypeError('FileSessionStore needs a root folder: new FileSessionStore({ root })');
  }
  const logger = options.logger ?? stderrLogger('warn');
  const files = { ...nodeFileOperations, ...options.operations };
  const lockTimeoutMs = options.lockTimeoutMs ?? 10_000;
  if (!(lockTimeoutMs >= 0)) {
    throw new TypeError(`lockTimeoutMs must be a number of milliseconds >= 0, got ${lockTimeoutMs}.`);
  }
  const leaseStaleMs = options.leaseStaleMs ?? 30_000;
  if (!(leaseStaleMs > 0 && Number.isFinite(leaseStaleMs))) {
    throw new TypeError(`leaseStaleMs must be a finite number of milliseconds > 0, got ${leaseStaleMs}.`);
  }
  const pid = options.processId ?? process.pid;
  if (!(Number.isSafeInteger(pid) && pid > 0)) {
    throw new TypeError(`processId must be a positive integer (a pid), got ${pid}.`);
  }
  const owner = { pid, host: hostname() };
  const lock = new SessionLock(files, { owner, timeoutMs: lockTimeoutMs, staleMs: 30_000, logger });
  // A run lease does not wait: core reports a busy session rather than queueing a run behind another process.
  const leases = new SessionLock(files, {
    file: '.run',
    label: 'session lease',
    owner,
    timeoutMs: 0,
    staleMs: leaseStaleMs,
    heartbeat: true,
    busy: (holder, folder) => new SessionBusyError(basename(folder), holder),
    lost: (detail, folder) => new SessionLeaseLostError(basename(folder), detail),
    released: (folder) =>
      new ConfigError(
        `A write of session '${basename(folder)}' passed a lease that was already released. Take the lease again (store.lease(id)) for the next run.`,
      ),
    logger,
  });
  return { logger, files, lock, leases };
}
