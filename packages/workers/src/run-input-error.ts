import { AgentError } from '@agent-core/core';

/** The input given to `enqueue` (or a schedule's prompt) is not a run input this package can store; nothing was written. */
export class RunInputError extends AgentError {
  constructor(problem: string) {
    super(
      'invalid_run_input',
      `Invalid run input: ${problem}. Pass a prompt (a string, or { type: 'prompt', prompt }), { type: 'follow_up', message } or { type: 'resume', decisions }. Nothing was enqueued.`,
    );
    this.name = 'RunInputError';
  }
}
