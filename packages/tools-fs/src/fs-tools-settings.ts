import { resolve } from 'node:path';
import { ConfigError } from '@agent-core/core';
import { type FileSystemOperations, nodeFileSystemOperations } from './file-system-operations.js';
import { type GitignoreRule, parseGitignore } from './gitignore.js';
import { Workspace } from './workspace.js';

/** Options of `fsTools`. Only `root` is usually needed. */
export interface FsToolsOptions {
  /** The workspace root; every path must resolve inside it. Default: `process.cwd()` when `fsTools` is called. */
  root?: string;
  /** Leave out `write_file` and `edit_file`. Default false. */
  readOnly?: boolean;
  /** File-system calls to replace; the rest come from `node:fs/promises`. */
  operations?: Partial<FileSystemOperations>;
  /** Most bytes of file text one `read_file` call returns. Default 256 KiB. */
  maxReadBytes?: number;
  /** Lines one `read_file` call returns when the model gives no `limit`. Default 2000. */
  maxReadLines?: number;
  /** Most entries `list_files` and `glob` return. Default 1000. */
  maxEntries?: number;
  /** Most matches `grep` may return, whatever the model asks. Default 1000 (the model's default is 100). */
  maxGrepResults?: number;
  /** Largest file `grep` searches and `edit_file` edits. Default 10 MiB. */
  maxFileBytes?: number;
  /** Most entries `glob` and `grep` visit in one call before stopping with a note. Default 100000. */
  maxScanEntries?: number;
  /** Extra ignore rules in `.gitignore` syntax, applied from the root (e.g. `['dist/', '*.log']`). */
  ignore?: readonly string[];
}

/** The options with defaults filled in, as the tools use them. */
export interface FsToolsSettings {
  root: string;
  readOnly: boolean;
  operations: FileSystemOperations;
  maxReadBytes: number;
  maxReadLines: number;
  maxEntries: number;
  maxGrepResults: number;
  maxFileBytes: number;
  maxScanEntries: number;
  rootRules: readonly GitignoreRule[];
}

function positiveInteger(name: keyof FsToolsOptions, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new ConfigError(`fsTools option '${name}' is ${String(value)}; use a positive whole number.`);
  }
  return value;
}

/** Fills in defaults and checks the options; throws `ConfigError` for a bad one. */
export function resolveFsToolsSettings(options: FsToolsOptions = {}): FsToolsSettings {
  if (options.root !== undefined && (typeof options.root !== 'string' || options.root === '')) {
    throw new ConfigError(`fsTools option 'root' is ${String(options.root)}; give a directory path.`);
  }
  if (options.ignore !== undefined && !Array.isArray(options.ignore)) {
    throw new ConfigError(`fsTools option 'ignore' must be an array of gitignore patterns.`);
  }
  return {
    root: resolve(options.root ?? process.cwd()),
    readOnly: options.readOnly === true,
    operations: { ...nodeFileSystemOperations, ...options.operations },
    maxReadBytes: positiveInteger('maxReadBytes', options.maxReadBytes, 256 * 1024),
    maxReadLines: positiveInteger('maxReadLines', options.maxReadLines, 2000),
    maxEntries: positiveInteger('maxEntries', options.maxEntries, 1000),
    maxGrepResults: positiveInteger('maxGrepResults', options.maxGrepResults, 1000),
    maxFileBytes: positiveInteger('maxFileBytes', options.maxFileBytes, 10 * 1024 * 1024),
    maxScanEntries: positiveInteger('maxScanEntries', options.maxScanEntries, 100_000),
    rootRules: parseGitignore((options.ignore ?? []).join('\n')),
  };
}

/** The workspace of one tool call: the root's real path is taken now, not at import or factory time. */
export function openWorkspace(settings: FsToolsSettings): Promise<Workspace> {
  return Workspace.open(settings.root, settings.operations);
}
