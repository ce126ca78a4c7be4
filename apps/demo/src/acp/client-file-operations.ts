import { constants } from 'node:fs';
import * as fileSystem from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { AcpClientAccess } from '@agent-core/acp';
import type { FileSystemOperations } from '@agent-core/tools-fs';

/**
 * File-system operations for tools-fs that read and write file text through
 * the editor (`fs/read_text_file`, `fs/write_text_file`), so the agent sees
 * unsaved buffers and the editor shows its edits, for what the editor
 * declared. Every path check of tools-fs still runs on disk: a read opens the
 * real file (checked as usual) and takes its text from the editor instead; a
 * write's temporary file is created and checked as usual, then the editor
 * writes the checked target in place of the rename.
 */
export function clientFileOperations(client: AcpClientAccess): Partial<FileSystemOperations> {
  const canRead = client.capabilities.fs?.readTextFile === true;
  const canWrite = client.capabilities.fs?.writeTextFile === true;
  // Temporary files of writes the editor will make, with the bytes they were given.
  const writes = new Map<string, Uint8Array>();
  return {
    async open(path, flags, mode) {
      const handle = await fileSystem.open(path, flags, mode);
      const access = flags & (constants.O_RDONLY | constants.O_WRONLY | constants.O_RDWR);
      try {
        if (access === constants.O_RDONLY && canRead) {
          const text = await client.readTextFile(path);
          return readingFrom(handle, Buffer.from(text, 'utf8'));
        }
      } catch (error) {
        await handle.close();
        throw error;
      }
      if (canWrite && (flags & constants.O_CREAT) !== 0 && (flags & constants.O_EXCL) !== 0)
        return capturingWrites(handle, path, writes);
      return handle;
    },
    async rename(from, to) {
      const data = writes.get(from);
      if (data === undefined) return fileSystem.rename(from, to);
      writes.delete(from);
      await fileSystem.unlink(from);
      await client.writeTextFile(to, Buffer.from(data).toString('utf8'));
    },
    async unlink(path) {
      writes.delete(path);
      await fileSystem.unlink(path);
    },
  };
}

/** The real handle, except that reads come from `bytes` (the editor's text). */
function readingFrom(handle: FileHandle, bytes: Buffer): FileHandle {
  const read = async (buffer: Buffer, offset: number, length: number, position: number | null) => {
    const start = position ?? 0;
    const bytesRead = Math.max(0, Math.min(length, bytes.length - start));
    bytes.copy(buffer, offset, start, start + bytesRead);
    return { bytesRead, buffer };
  };
  return delegate(handle, { read });
}

/** The real handle, except that the data written is kept for the editor instead of the disk. */
function capturingWrites(handle: FileHandle, path: string, writes: Map<string, Uint8Array>): FileHandle {
  const writeFile = async (data: Uint8Array | string) => {
    writes.set(path, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  };
  return delegate(handle, { writeFile });
}

function delegate(handle: FileHandle, overrides: Record<string, unknown>): FileHandle {
  return new Proxy(handle, {
    get(target, property, receiver) {
      if (typeof property === 'string' && property in overrides) return overrides[property];
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
