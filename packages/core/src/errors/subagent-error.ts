import { AgentError } from './agent-error.js';

/**
 * A subagent tool could not run its agent or the agent did not finish: the
 * depth limit was reached, or the child run ended without completing. The
 * parent's model sees the message as the tool's error result.
 */
export class SubagentError extends AgentError {
  /** The names of the agents from the root to the subagent. */
  readonly agentPath: readonly string[];
  /** The child run, when it started. */
  readonly childRunId: string | undefined;

  constructor(
    code: 'subagent_depth' | 'subagent_failed' | 'subagent_await_user',
    message: string,
    agentPath: readonly string[],
    childRunId?: string,
  ) {
    super(code, message);
    this.name = 'SubagentError';
    this.agentPath = agentPath;
    this.childRunId = childRunId;
  }
}
