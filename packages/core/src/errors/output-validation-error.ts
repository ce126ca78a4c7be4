import { AgentError } from './agent-error.js';
import type { DefinitionIssue } from './agent-definition-error.js';

/**
 * A run asked for structured output and did not get valid output: reported in
 * `AgentResult.error` next to `outputValid: false` and the raw text, never thrown.
 * `issues` are the schema's complaints about the last attempt (empty when the model never tried).
 */
export class OutputValidationError extends AgentError {
  readonly agentName: string;
  readonly attempts: number;
  readonly issues: readonly DefinitionIssue[];

  constructor(agentName: string, attempts: number, issues: readonly DefinitionIssue[], detail: string) {
    super(
      'output_invalid',
      `Agent '${agentName}' gave no valid structured output: ${detail}${
        issues.length > 0
          ? ` Last problems: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}.`
          : ''
      } The raw content is in the result's text.`,
    );
    this.name = 'OutputValidationError';
    this.agentName = agentName;
    this.attempts = attempts;
    this.issues = issues;
  }
}
