import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Workspace, WriteTarget } from './workspace.js';

// Absent on Windows, where O_EXCL alone keeps the temporary file from being a link.
const noFollow = constants.O_NOFOLLOW ?? 0;

/**
 * Writes `data` to a resolved target atomically: a temporary file created with
 * `O_EXCL | O_NOFOLLOW` beside the target, checked to lie inside the root,
 * synced, then renamed over the target (a rename replaces a link, never writes
 * through it). An existing file keeps its permission bits; on any failure the
 * temporary file is removed and the target is untouched.
 */
export async function writeAtomically(
  workspace: Workspace,
  target: WriteTarget,
  data: Uint8Array,
  signal?: AbortSignal,
): Promise<void> {
  const temporary = join(
    dirname(target.real),
    `.${basename(target.real)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow;
  const handle = await workspace.operations.open(temporary, flags, 0o666);
  let renamed = false;
  try {
    try {
      await workspace.assertHandleInside(target.display, handle);
      if (target.existing !== undefined) await handle.chmod(target.existing.mode & 0o7777);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    signal?.throwIfAborted();
    await workspace.operations.rename(temporary, target.real);
    renamed = true;
  } finally {
    if (!renamed) await workspace.operations.unlink(temporary).catch(() => undefined);
  }
}
