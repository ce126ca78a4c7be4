import { AgentError } from './agent-error.js';

/** A `hooks.beforeRun` hook threw (`before_run_failed`); the run ended before any model call. */
export class HookError extends AgentError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('before_run_failed', message, options);
    this.name = 'HookError';
  }
}
