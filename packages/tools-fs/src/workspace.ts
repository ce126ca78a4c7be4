import { constants, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { FileSystemOperations } from './file-system-operations.js';
import { WorkspaceError, type WorkspaceErrorCode } from './workspace-error.js';

// Absent on Windows; there the dev/ino comparison is the only check-then-use guard.
const noFollow = constants.O_NOFOLLOW ?? 0;
const nonBlocking = constants.O_NONBLOCK ?? 0;

/** An existing path inside the workspace, resolved and checked. */
export interface ResolvedEntry {
  /** The path as shown to the model: relative to the root, `/`-separated, `.` for the root itself. */
  display: string;
  /** The absolute path with every symbolic link resolved; always inside the real root. */
  real: string;
  /** `stat` of `real` taken when it was resolved; the open handle is compared with it. */
  stats: Stats;
}

/** Where a write goes: the real parent directory (created if needed) plus the file name. */
export interface WriteTarget {
  display: string;
  /** The real path of the file to write. */
  real: string;
  /** The current file's stats, or undefined when the file does not exist yet. */
  existing: Stats | undefined;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

function isWithin(base: string, target: string): boolean {
  const path = relative(base, target);
  return path === '' || (path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}

/**
 * The workspace root of one tool call, with its real path taken once, and
 * every path check the fs tools make. Symbolic links inside the root are
 * followed; any path that resolves outside it is refused.
 */
export class Workspace {
  readonly root: string;
  readonly realRoot: string;
  readonly operations: FileSystemOperations;

  private constructor(root: string, realRoot: string, operations: FileSystemOperations) {
    this.root = root;
    this.realRoot = realRoot;
    this.operations = operations;
  }

  /** Resolves the root's real path (once per tool call, so a moved root is noticed). */
  static async open(root: string, operations: FileSystemOperations): Promise<Workspace> {
    const absoluteRoot = resolve(root);
    let realRoot: string;
    let stats: Stats;
    try {
      realRoot = await operations.realpath(absoluteRoot);
      stats = await operations.stat(realRoot);
    } catch (error) {
      throw new WorkspaceError(
        'root_unusable',
        `The workspace root '${absoluteRoot}' cannot be used (${errorCode(error) ?? String(error)}); create it or configure another root.`,
        { path: absoluteRoot, root: absoluteRoot, cause: error },
      );
    }
    if (!stats.isDirectory()) {
      throw new WorkspaceError('root_unusable', `The workspace root '${absoluteRoot}' is not a directory.`, {
        path: absoluteRoot,
        root: absoluteRoot,
      });
    }
    return new Workspace(absoluteRoot, realRoot, operations);
  }

  /** True when an absolute path lies inside the real root. */
  contains(absolute: string): boolean {
    return isWithin(this.realRoot, absolute);
  }

  /** The model-facing form of an absolute path under the real root. */
  displayOf(absolute: string): string {
    const path = relative(this.realRoot, absolute);
    return path === '' ? '.' : path.split(sep).join('/');
  }

  /**
   * Maps the model's path onto the real root without touching the disk:
   * relative paths are taken from the root, absolute ones must lie inside the
   * root (as configured or as resolved); `..` may not climb out.
   */
  locate(input: string): string {
    if (input.includes('\0')) this.#refuse('invalid_path', input, `The path contains a NUL character.`);
    const tooLong = pathLengthProblem(input);
    if (tooLong !== undefined) this.#refuse('invalid_path', input, tooLong);
    const text = input.trim() === '' ? '.' : input;
    if (isAbsolute(text)) {
      const normal = resolve(text);
      for (const base of [this.realRoot, this.root]) {
        if (isWithin(base, normal)) return join(this.realRoot, relative(base, normal));
      }
      this.#refuse(
        'outside_workspace',
        input,
        `The absolute path '${input}' is outside the workspace root '${this.root}'. Use a path relative to the root, or an absolute path inside it.`,
      );
    }
    const absolute = resolve(this.realRoot, text);
    if (!this.contains(absolute)) {
      this.#refuse(
        'outside_workspace',
        input,
        `The path '${input}' resolves to '${absolute}', outside the workspace root '${this.root}'. '..' may not leave the root; use a path inside it.`,
      );
    }
    return absolute;
  }

  /** Resolves a path that must exist, following links only while they stay inside the root. */
  async resolveExisting(input: string): Promise<ResolvedEntry> {
    const absolute = this.locate(input);
    try {
      const real = await this.operations.realpath(absolute);
      this.#assertInside(input, real);
      return { display: this.displayOf(absolute), real, stats: await this.operations.stat(real) };
    } catch (error) {
      throw this.#accessFailure(input, error);
    }
  }

  /**
   * Resolves where a write to `input` goes. An existing file is written in
   * place of its real path; for a new file the parent's real path is checked
   * and missing directories are created (and checked again after creating).
   */
  async resolveForWrite(input: string): Promise<WriteTarget> {
    const absolute = this.locate(input);
    const display = this.displayOf(absolute);
    if (absolute === this.realRoot)
      this.#refuse('not_a_file', input, `'${input}' is the workspace root, a directory; give a file path.`);
    try {
      const real = await this.operations.realpath(absolute);
      this.#assertInside(input, real);
      const stats = await this.operations.stat(real);
      if (!stats.isFile())
        this.#refuse('not_a_file', input, `'${input}' exists and is not a regular file; give a file path.`);
      return { display, real, existing: stats };
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw this.#accessFailure(input, error);
    }
    await this.#refuseDanglingLink(input, absolute);
    const realParent = await this.#ensureDirectory(input, dirname(absolute));
    return { display, real: join(realParent, basename(absolute)), existing: undefined };
  }

  /**
   * Opens a resolved regular file for reading without following a link in its
   * last component, then checks that the handle is the file that was checked
   * (same device and inode) and, where `/proc` shows it, that it lies inside
   * the root: a file or parent swapped for a link after the check is refused.
   */
  async openForRead(entry: ResolvedEntry): Promise<FileHandle> {
    if (entry.stats.isDirectory())
      this.#refuse(
        'not_a_file',
        entry.display,
        `'${entry.display}' is a directory; use list_files to see it.`,
      );
    if (!entry.stats.isFile())
      this.#refuse('not_a_file', entry.display, `'${entry.display}' is not a regular file.`);
    let handle: FileHandle;
    try {
      handle = await this.operations.open(entry.real, constants.O_RDONLY | noFollow | nonBlocking);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ELOOP' || code === 'ENOENT' || code === 'ENOTDIR') {
        this.#refuse(
          'changed_during_use',
          entry.display,
          `'${entry.display}' changed between the path check and opening it (it became a symbolic link or disappeared); refused. Check the path and try again.`,
          error,
        );
      }
      throw error;
    }
    try {
      const opened = await handle.stat();
      await this.assertHandleInside(entry.display, handle);
      if (opened.dev !== entry.stats.dev || opened.ino !== entry.stats.ino) {
        this.#refuse(
          'changed_during_use',
          entry.display,
          `'${entry.display}' was replaced between the path check and opening it (it may now lead outside the workspace root '${this.root}'); refused. Check the path and try again.`,
        );
      }
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Refuses a directory that no longer resolves to itself: called after
   * reading it, so a directory swapped for a link while it was read is caught.
   */
  async assertDirectoryUnchanged(display: string, real: string): Promise<void> {
    const now = await this.operations.realpath(real).catch(() => undefined);
    if (now !== real) {
      this.#refuse(
        'changed_during_use',
        display,
        `'${display}' changed while it was being read (it became a symbolic link or disappeared${now === undefined ? '' : `; it now leads to '${now}'`}); refused. Check the path and try again.`,
      );
    }
  }

  /** Where an open handle really is, from `/proc/self/fd` on Linux; undefined elsewhere. */
  async #handlePath(handle: FileHandle): Promise<string | undefined> {
    if (process.platform !== 'linux') return undefined;
    try {
      const path = await this.operations.realpath(`/proc/self/fd/${handle.fd}`);
      return isAbsolute(path) && !path.startsWith('/proc/') ? path : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Refuses a handle that `/proc/self/fd` shows outside the root: the check
   * after opening that catches a path swapped for a link after it was resolved.
   */
  async assertHandleInside(display: string, handle: FileHandle): Promise<void> {
    const actual = await this.#handlePath(handle);
    if (actual !== undefined && !this.contains(actual)) {
      this.#refuse(
        'changed_during_use',
        display,
        `'${display}' changed between the path check and its use: it now leads to '${actual}', outside the workspace root '${this.root}'; refused.`,
      );
    }
  }

  async #ensureDirectory(input: string, directory: string): Promise<string> {
    const missing: string[] = [];
    let current = directory;
    let realAncestor: string;
    for (;;) {
      try {
        realAncestor = await this.operations.realpath(current);
        break;
      } catch (error) {
        if (errorCode(error) !== 'ENOENT' || current === this.realRoot)
          throw this.#accessFailure(input, error);
        await this.#refuseDanglingLink(input, current);
        missing.unshift(basename(current));
        current = dirname(current);
      }
    }
    this.#assertInside(input, realAncestor);
    if (missing.length === 0) {
      if (!(await this.operations.stat(realAncestor)).isDirectory())
        this.#refuse('not_a_directory', input, `A parent of '${input}' is a file, not a directory.`);
      return realAncestor;
    }
    try {
      await this.operations.mkdir(join(realAncestor, ...missing), { recursive: true });
      // Checked again: a directory on the way could have become a link while it was created.
      const realDirectory = await this.operations.realpath(join(realAncestor, ...missing));
      this.#assertInside(input, realDirectory);
      return realDirectory;
    } catch (error) {
      throw this.#accessFailure(input, error);
    }
  }

  async #refuseDanglingLink(input: string, absolute: string): Promise<void> {
    const stats = await this.operations.lstat(absolute).catch(() => undefined);
    if (stats?.isSymbolicLink()) {
      this.#refuse(
        'dangling_symlink',
        input,
        `'${this.displayOf(absolute)}' is a symbolic link whose target does not exist; refused to write through it. Remove the link or choose another path inside the workspace root '${this.root}'.`,
      );
    }
  }

  #assertInside(input: string, real: string): void {
    if (!this.contains(real)) {
      this.#refuse(
        'outside_workspace',
        input,
        `The path '${input}' leads through a symbolic link to '${real}', outside the workspace root '${this.root}'; links that leave the root are refused.`,
      );
    }
  }

  #accessFailure(input: string, error: unknown): Error {
    if (error instanceof WorkspaceError) return error;
    const code = errorCode(error);
    const details = { path: input, root: this.root, cause: error };
    if (code === 'ELOOP')
      return new WorkspaceError(
        'symlink_loop',
        `The path '${input}' runs into a symbolic link loop (ELOOP) in the workspace root '${this.root}'; fix or remove the link.`,
        details,
      );
    if (code === 'ENOENT')
      return new WorkspaceError(
        'not_found',
        `'${input}' does not exist in the workspace root '${this.root}'. Check the path with list_files or glob.`,
        details,
      );
    if (code === 'ENOTDIR' || code === 'EEXIST')
      return new WorkspaceError(
        'not_a_directory',
        `A parent of '${input}' is a file, not a directory.`,
        details,
      );
    if (code === 'ENAMETOOLONG')
      return new WorkspaceError(
        'invalid_path',
        `The path '${shortened(input)}' is longer than the file system allows once resolved in the workspace root; use a shorter one.`,
        details,
      );
    const reason = error instanceof Error ? error.message : String(error);
    return new Error(`Cannot access '${shortened(input)}': ${shortened(reason)}`, { cause: error });
  }

  #refuse(code: WorkspaceErrorCode, input: string, message: string, cause?: unknown): never {
    throw new WorkspaceError(code, message, { path: input, root: this.root, cause });
  }
}

// Linux's limits (PATH_MAX, NAME_MAX): longer paths fail in the kernel with ENAMETOOLONG anyway.
const maxPathBytes = 4096;
const maxNameBytes = 255;

/** Why `input` is too long to be a path, or undefined; the message quotes only its start. */
function pathLengthProblem(input: string): string | undefined {
  const bytes = Buffer.byteLength(input);
  if (bytes > maxPathBytes)
    return `The path '${shortened(input)}' is ${bytes} bytes long; a path is at most ${maxPathBytes} bytes. Use a shorter one.`;
  const name = input.split(/[\\/]/).find((part) => Buffer.byteLength(part) > maxNameBytes);
  if (name !== undefined)
    return `The name '${shortened(name)}' in the path is ${Buffer.byteLength(name)} bytes long; a file or folder name is at most ${maxNameBytes} bytes. Use a shorter one.`;
  return undefined;
}

/** A text cut to its first 120 characters, so an error about a huge path stays readable. */
function shortened(text: string): string {
  return text.length <= 120 ? text : `${text.slice(0, 120)}… (${text.length} characters)`;
}
