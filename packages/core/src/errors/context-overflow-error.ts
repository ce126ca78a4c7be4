import { AgentError } from './agent-error.js';

/** The numbers behind a `ContextOverflowError`, when they are known. */
export interface ContextOverflowDetails {
  /** Tokens the request would take after dropping everything that may be dropped. */
  tokens?: number;
  /** Tokens the context window allows. */
  budget?: number;
  cause?: unknown;
}

/**
 * The history cannot be made to fit the model's context window: what must be
 * kept (pinned and system-level messages, the newest user message and the
 * newest tool call with its results) is too large on its own, or the provider
 * still refused the request after one compaction. Reported as the run's error.
 */
export class ContextOverflowError extends AgentError {
  readonly tokens: number | undefined;
  readonly budget: number | undefined;

  constructor(message: string, details: ContextOverflowDetails = {}) {
    super('context_overflow', message, { cause: details.cause });
    this.name = 'ContextOverflowError';
    this.tokens = details.tokens;
    this.budget = details.budget;
  }
}
