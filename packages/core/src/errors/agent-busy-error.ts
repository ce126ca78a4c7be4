import { AgentError } from './agent-error.js';

/** `prompt()` or `reset()` was called while a run is in progress. */
export class AgentBusyError extends AgentError {
  constructor(action: string) {
    super(
      'agent_busy',
      `Cannot ${action} while the agent is running a prompt. Use steer() or followUp() to add messages to the current run, abort() to stop it, or await its result() first.`,
    );
    this.name = 'AgentBusyError';
  }
}
