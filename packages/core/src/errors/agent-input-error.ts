import { AgentError } from './agent-error.js';
import type { DefinitionIssue } from './agent-definition-error.js';

/**
 * The inputs given to `AgentExecutor.execute` do not fit the definition's
 * `inputConfig`: missing, unknown or of the wrong type. Thrown before any model call.
 */
export class AgentInputError extends AgentError {
  readonly definitionName: string;
  readonly issues: readonly DefinitionIssue[];

  constructor(definitionName: string, issues: readonly DefinitionIssue[]) {
    super(
      'invalid_input',
      `Inputs for agent '${definitionName}' are invalid: ${issues
        .map((issue) => `${issue.path}: ${issue.message}`)
        .join('; ')}. Pass the inputs its inputConfig declares.`,
    );
    this.name = 'AgentInputError';
    this.definitionName = definitionName;
    this.issues = issues;
  }
}
