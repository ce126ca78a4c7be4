import { AgentError } from './agent-error.js';

/** One problem found in an agent definition: the field's dotted path and what is wrong with it. */
export interface DefinitionIssue {
  path: string;
  message: string;
}

/**
 * An agent definition was refused (at `defineAgent`, `register` or `execute`):
 * the message names the definition and each failing field.
 */
export class AgentDefinitionError extends AgentError {
  readonly definitionName: string;
  readonly issues: readonly DefinitionIssue[];

  constructor(definitionName: string, issues: readonly DefinitionIssue[]) {
    super(
      'invalid_definition',
      `Agent definition '${definitionName}' is invalid: ${issues
        .map((issue) => `${issue.path}: ${issue.message}`)
        .join('; ')}. Fix these fields and register it again.`,
    );
    this.name = 'AgentDefinitionError';
    this.definitionName = definitionName;
    this.issues = issues;
  }
}
