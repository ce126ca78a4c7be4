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

/** The options `new FileSessionStore(...)` takes, for naming them when one is unknown. */
const optionNames = ['root', 'logger', 'operations', 'lockTimeoutMs', 'leaseStaleMs', 'processId'];

/**
 * Checks the options (`ConfigError` naming the bad one, what it takes, and
 * never more of a value than its type) and builds the store's parts.
 */
export function storeParts(options: FileSessionStoreOptions): StoreParts {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new ConfigError(
      `FileSessionStore needs options with a root folder, e.g. new FileSessionStore({ root: '/var/lib/my-agent/sessions' }); got ${kindOf(options)}.`,
    );
  const unknown = Object.keys(options).filter((name) => !optionNames.includes(name));
  if (unknown.length > 0)
    throw new ConfigError(
      `FileSessionStore has no option ${unknown.map((name) => `'${name}'`).join(', ')}; its options are ${optionNames.join(', ')}.`,
    );
  if (typeof options.root !== 'string' || options.root === '')
    throw new ConfigError(
      `FileSessionStore needs root, the folder that holds the sessions (created when first needed), e.g. new FileSessionStore({ root: '/var/lib/my-agent/sessions' }); got ${options.root === '' ? 'an empty string' : kindOf(options.root)}.`,
    );
  const logger = options.logger ?? stderrLogger('warn');
  if (!isLogger(logger))
    throw new ConfigError(
      `FileSessionStore logger must be a Logger (debug, info, warn and error functions), such as stderrLogger('warn') from @agent-core/core; got ${kindOf(options.logger)}.`,
    );
  const files = { ...nodeFileOperations, ...checkedOperations(options.operations) };
  const lockTimeoutMs = milliseconds('lockTimeoutMs', options.lockTimeoutMs, 10_000, {
    valid: (value) => value >= 0,
    words: '>= 0 (Infinity waits for ever)',
  });
  const leaseStaleMs = milliseconds('leaseStaleMs', options.leaseStaleMs, 30_000, {
    valid: (value) => value > 0 && Number.isFinite(value),
    words: '> 0, finite',
  });
  const pid = options.processId ?? process.pid;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0)
    throw new ConfigError(
      `FileSessionStore processId must be a positive whole number (a pid), or left out for this process's; got ${kindOf(pid)}.`,
    );
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

/** A number of milliseconds from the options, its default when left out; `ConfigError` naming it otherwise. */
function milliseconds(
  name: string,
  value: unknown,
  fallback: number,
  range: { valid: (value: number) => boolean; words: string },
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !range.valid(value))
    throw new ConfigError(
      `FileSessionStore ${name} must be a number of milliseconds ${range.words}, or left out for ${fallback.toLocaleString('en-US')}; got ${kindOf(value)}.`,
    );
  return value;
}

/** The injected file operations, each a function named as in `FileOperations`. */
function checkedOperations(operations: unknown): Partial<FileOperations> {
  if (operations === undefined) return {};
  if (typeof operations !== 'object' || operations === null || Array.isArray(operations))
    throw new ConfigError(
      `FileSessionStore operations must be an object of file system functions (FileOperations) to replace the real ones; got ${kindOf(operations)}.`,
    );
  const known = Object.keys(nodeFileOperations);
  for (const [name, operation] of Object.entries(operations)) {
    if (!known.includes(name))
      throw new ConfigError(
        `FileSessionStore operations has no operation '${name}'; the operations are ${known.join(', ')}.`,
      );
    if (typeof operation !== 'function')
      throw new ConfigError(
        `FileSessionStore operations.${name} must be a function; got ${kindOf(operation)}.`,
      );
  }
  return operations as Partial<FileOperations>;
}

function isLogger(value: unknown): value is Logger {
  const logger = value as Partial<Logger> | null;
  return (
    typeof logger === 'object' &&
    logger !== null &&
    (['debug', 'info', 'warn', 'error'] as const).every((level) => typeof logger[level] === 'function')
  );
}

/** What a value is, for an error message: its type and, for numbers and booleans, the value (never a string's text). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  if (typeof value === 'string') return `a string`;
  return value === undefined ? 'nothing' : `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`;
}
