import { AgentError } from './agent-error.js';

/** Why a run stopped early, reported in `AgentResult.error`: abort, timeout or a limit. */
export class RunStoppedError extends AgentError {
  constructor(
    code: 'aborted' | 'timeout' | 'max_turns' | 'max_tokens',
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(code, message, options);
    this.name = 'RunStoppedError';
  }
}
