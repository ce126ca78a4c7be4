import { AgentError } from './agent-error.js';

/** A system prompt template names a variable nobody defined. Thrown when the prompt is built. */
export class TemplateError extends AgentError {
  readonly variable: string;
  readonly section: string;

  constructor(variable: string, section: string, known: readonly string[]) {
    super(
      'unknown_template_variable',
      `The ${section} section of the system prompt uses the unknown variable '${variable}'. Known variables: ${known.join(', ')}. Add it to the builder's variables, or fix its name.`,
    );
    this.name = 'TemplateError';
    this.variable = variable;
    this.section = section;
  }
}
