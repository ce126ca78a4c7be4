import type { Dirent, Stats } from 'node:fs';
import * as fileSystem from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

/**
 * The file-system calls the fs tools make. Pass some of them as
 * `fsTools({ operations })` to sandbox, instrument or fake the file system;
 * the rest default to `node:fs/promises`.
 *
 * Contract:
 * - Each call behaves like its `node:fs/promises` namesake, and failures reject
 *   with an error whose `code` is the errno name (`ENOENT`, `ELOOP`, ...).
 * - `open` returns a real `FileHandle`: the tools read and write through it and
 *   check where it points after opening (the check-then-use guard).
 */
export interface FileSystemOperations {
  realpath(path: string): Promise<string>;
  stat(path: string): Promise<Stats>;
  lstat(path: string): Promise<Stats>;
  readdir(path: string, options: { withFileTypes: true }): Promise<Dirent[]>;
  open(path: string, flags: number, mode?: number): Promise<FileHandle>;
  mkdir(path: string, options: { recursive: true }): Promise<string | undefined>;
  rename(oldPath: string, newPath: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

/** The default operations: thin wrappers over `node:fs/promises`. */
export const nodeFileSystemOperations: FileSystemOperations = {
  realpath: (path) => fileSystem.realpath(path),
  stat: (path) => fileSystem.stat(path),
  lstat: (path) => fileSystem.lstat(path),
  readdir: (path, options) => fileSystem.readdir(path, options),
  open: (path, flags, mode) => fileSystem.open(path, flags, mode),
  mkdir: (path, options) => fileSystem.mkdir(path, options),
  rename: (oldPath, newPath) => fileSystem.rename(oldPath, newPath),
  unlink: (path) => fileSystem.unlink(path),
};
