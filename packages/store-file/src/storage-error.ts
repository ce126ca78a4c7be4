import { SessionStorageError } from '@agent-core/core';

/** The errno code of a Node file system error, if any. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Maps a file system failure onto a typed `SessionStorageError` naming the path. */
export function storageError(path: string, error: unknown): SessionStorageError {
  const code = errorCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new SessionStorageError(path, 'full', detail, { cause: error });
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM')
    return new SessionStorageError(path, 'read_only', detail, { cause: error });
  return new SessionStorageError(path, 'io', detail, { cause: error });
}
