const marker = Symbol.for('agent-core.error');

/** Options shared by every agent-core error. */
export interface AgentErrorOptions {
  cause?: unknown;
}

/**
 * Base of every error agent-core throws or reports. `code` is a stable string
 * to branch on; the message says what happened and what to do about it.
 * `AgentError.isInstance` works across duplicate copies of the package.
 */
export class AgentError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options: AgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AgentError';
    this.code = code;
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for any agent-core error, whichever copy of the package made it. */
  static isInstance(value: unknown): value is AgentError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }

  /** A plain-JSON form for logs, events files and session stores. */
  toJSON(): { name: string; code: string; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}

/** Wraps anything thrown into an AgentError, keeping the original as `cause`. */
export function toAgentError(error: unknown, code = 'internal'): AgentError {
  if (AgentError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AgentError(code, message, { cause: error });
}
