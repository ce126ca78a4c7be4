import { mkdir, open, readdir, readFile, rename, rm, stat, truncate, unlink } from 'node:fs/promises';

/**
 * The file system calls `FileSessionStore` makes, injectable so tests (and
 * unusual platforms) can stand in for a full disk or a read-only folder.
 * Every write ends with an fsync.
 */
export interface FileOperations {
  readFile(path: string): Promise<Buffer>;
  /** The bytes of `path` from offset `start` to its end (empty when `start` is at or past the end). */
  readFrom(path: string, start: number): Promise<Buffer>;
  /**
   * A string that names the file now at `path` and changes whenever it is
   * replaced or written (its device, inode and change time); undefined when
   * there is none. A lease holder compares it before each write, a stat instead of a read.
   */
  identity(path: string): Promise<string | undefined>;
  /** The file's length in bytes; 0 when it does not exist. */
  size(path: string): Promise<number>;
  /** Creates `path` (it must not exist), writes `data` and fsyncs it. */
  writeNew(path: string, data: string | Uint8Array): Promise<void>;
  /**
   * Creates `path` only if it does not exist (else throws with code `EEXIST`)
   * and writes `data`, without fsync: for lock, lease and summary files, which need no durability.
   */
  createExclusive(path: string, data: string): Promise<void>;
  /**
   * Opens `path`, reads it, and when `accept(text)` holds writes `data` over
   * it in place, through that same open file, without fsync: for renewing a
   * lease, whose new text has the old one's length. A file put in its place
   * after the open is never written. Resolves whether it wrote; rejects with
   * code `ENOENT` when there is no file.
   */
  rewriteIf(path: string, data: string, accept: (current: string) => boolean): Promise<boolean>;
  /** Appends `data` to `path` (creating it) and fsyncs it. */
  append(path: string, data: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Fsyncs a folder, so a rename in it survives a power loss. */
  syncDirectory(path: string): Promise<void>;
  mkdir(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  removeTree(path: string): Promise<void>;
  truncate(path: string, length: number): Promise<void>;
  unlink(path: string): Promise<void>;
}

/** The real file system (`node:fs/promises`). */
export const nodeFileOperations: FileOperations = {
  readFile: (path) => readFile(path),
  async readFrom(path, start) {
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.max(0, size - start);
      const buffer = Buffer.alloc(length);
      let offset = 0;
      while (offset < length) {
        const { bytesRead } = await handle.read(buffer, offset, length - offset, start + offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
      }
      return buffer.subarray(0, offset);
    } finally {
      await handle.close();
    }
  },
  async identity(path) {
    try {
      const found = await stat(path, { bigint: true });
      return `${found.dev}:${found.ino}:${found.ctimeNs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  },
  async size(path) {
    try {
      return (await stat(path)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
  },
  async writeNew(path, data) {
    const handle = await open(path, 'wx');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  async createExclusive(path, data) {
    const handle = await open(path, 'wx');
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
  },
  async rewriteIf(path, data, accept) {
    const handle = await open(path, 'r+');
    try {
      const current = await handle.readFile();
      if (!accept(current.toString('utf8'))) return false;
      const bytes = Buffer.from(data, 'utf8');
      await handle.write(bytes, 0, bytes.length, 0);
      if (bytes.length < current.length) await handle.truncate(bytes.length);
      return true;
    } finally {
      await handle.close();
    }
  },
  async append(path, data) {
    const handle = await open(path, 'a');
    try {
      await handle.writeFile(data);
      await handle.datasync();
    } finally {
      await handle.close();
    }
  },
  rename: (from, to) => rename(from, to),
  async syncDirectory(path) {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } catch (error) {
      // Some platforms (Windows) cannot fsync a folder; the rename is still atomic there.
      if (
        (error as NodeJS.ErrnoException).code !== 'EISDIR' &&
        (error as NodeJS.ErrnoException).code !== 'EPERM'
      )
        throw error;
    } finally {
      await handle.close();
    }
  },
  mkdir: async (path) => {
    await mkdir(path, { recursive: true });
  },
  readdir: (path) => readdir(path),
  removeTree: (path) => rm(path, { recursive: true, force: true }),
  truncate: (path, length) => truncate(path, length),
  unlink: (path) => unlink(path),
};
