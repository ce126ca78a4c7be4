import { AgentError } from './agent-error.js';

/** The guard ended the run (`guard_killed`): `reason` says what it saw, such as a call repeated six times. */
export class GuardError extends AgentError {
  readonly reason: string;

  constructor(reason: string) {
    super(
      'guard_killed',
      `The guard ended the run: ${reason}. The history is kept; look at the last calls before prompting again.`,
    );
    this.name = 'GuardError';
    this.reason = reason;
  }
}
