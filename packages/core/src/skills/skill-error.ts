import { AgentError } from '../errors/agent-error.js';

/** Why a skill or one of its files could not be given to the model. */
export type SkillErrorCode =
  | 'unknown_skill'
  | 'outside_skill'
  | 'file_not_found'
  | 'not_a_file'
  | 'binary_file'
  | 'file_too_large'
  | 'skill_unreadable';

/**
 * A skill or bundled file the skill tools refused or could not read. The
 * message names the skill and the path and says what to do; the tools turn
 * it into an error result the model reads.
 */
export class SkillError extends AgentError {
  override readonly code: SkillErrorCode;
  /** The skill's name as the model gave it. */
  readonly skill: string;
  /** The file's path as the model gave it, when the error is about a file. */
  readonly path: string | undefined;

  constructor(
    code: SkillErrorCode,
    message: string,
    details: { skill: string; path?: string; cause?: unknown },
  ) {
    super(code, message, details.cause === undefined ? {} : { cause: details.cause });
    this.name = 'SkillError';
    this.code = code;
    this.skill = details.skill;
    this.path = details.path;
  }
}
