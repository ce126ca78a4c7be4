import { AgentError } from '@agent-core/core';

/** What went wrong with a cassette file; `code` of a `CassetteError`. */
export type CassetteErrorCode =
  | 'cassette_not_found'
  | 'cassette_unreadable'
  | 'cassette_version_unsupported'
  | 'cassette_invalid'
  | 'cassette_write_failed';

/**
 * A cassette that cannot be used: missing in replay mode, not JSON, written
 * by a newer format version, an entry edited so that its request or reply no
 * longer parses, or a file that cannot be written. `file` names the file and
 * `entry` the entry (from 0) when one is at fault; the message says what to do.
 */
export class CassetteError extends AgentError {
  readonly file: string | undefined;
  readonly entry: number | undefined;

  constructor(
    code: CassetteErrorCode,
    message: string,
    options: { file?: string; entry?: number; cause?: unknown } = {},
  ) {
    super(code, message, { cause: options.cause });
    this.name = 'CassetteError';
    this.file = options.file;
    this.entry = options.entry;
  }
}
