import { AgentError } from '@agent-core/core';

/** Why a path was refused or could not be used. */
export type WorkspaceErrorCode =
  | 'outside_workspace'
  | 'symlink_loop'
  | 'dangling_symlink'
  | 'changed_during_use'
  | 'not_found'
  | 'not_a_file'
  | 'not_a_directory'
  | 'invalid_path'
  | 'root_unusable';

/**
 * A path the fs tools refused or could not use. The message names the path and
 * the workspace root and says what to do; the tool turns it into an error
 * result the model reads.
 */
export class WorkspaceError extends AgentError {
  override readonly code: WorkspaceErrorCode;
  /** The path as the model gave it. */
  readonly path: string;
  /** The workspace root as configured. */
  readonly root: string;

  constructor(
    code: WorkspaceErrorCode,
    message: string,
    details: { path: string; root: string; cause?: unknown },
  ) {
    super(code, message, details.cause === undefined ? {} : { cause: details.cause });
    this.name = 'WorkspaceError';
    this.code = code;
    this.path = details.path;
    this.root = details.root;
  }
}
