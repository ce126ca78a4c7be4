import { AgentError } from './agent-error.js';

/**
 * A stored session cannot be read: invalid JSON, a missing or wrong field, or
 * a `schemaVersion` this version of agent-core does not know. `source` names
 * the file or key, `field` the path of the bad value. Nothing was changed.
 */
export class SessionCorruptError extends AgentError {
  readonly source: string;
  readonly field: string | undefined;

  constructor(
    source: string,
    detail: string,
    options: {
      field?: string;
      code?: 'session_corrupt' | 'session_schema_unsupported';
      cause?: unknown;
    } = {},
  ) {
    super(
      options.code ?? 'session_corrupt',
      `Session data in ${source} cannot be read${options.field === undefined ? '' : ` (field '${options.field}')`}: ${detail}`,
      { cause: options.cause },
    );
    this.name = 'SessionCorruptError';
    this.source = source;
    this.field = options.field;
  }
}
