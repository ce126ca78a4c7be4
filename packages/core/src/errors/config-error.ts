import { AgentError } from './agent-error.js';

/** A mistake in how an agent, tool or plugin was configured. Thrown at once, never reported mid-run. */
export class ConfigError extends AgentError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('invalid_config', message, options);
    this.name = 'ConfigError';
  }
}
