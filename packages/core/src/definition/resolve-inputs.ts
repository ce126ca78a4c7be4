import { safeParse } from 'zod/v4/core';
import { AgentInputError } from '../errors/agent-input-error.js';
import type { DefinitionIssue } from '../errors/agent-definition-error.js';
import type { AgentDefinition, InputParameter, InputType } from './agent-definition.js';

type Checked = { ok: true; value: unknown } | { ok: false; message: string };

/** Checks one value against an input's type or schema; returns the (parsed) value or why it does not fit. */
export function checkInput(parameter: InputParameter, value: unknown): Checked {
  const schema = parameter.schema;
  if (schema !== undefined) {
    try {
      const parsed = safeParse(schema, value);
      if (parsed.success) return { ok: true, value: parsed.data };
      return {
        ok: false,
        message: parsed.error.issues
          .map((issue) =>
            issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message,
          )
          .join('; '),
      };
    } catch (error) {
      // An async refinement or a throwing one: the input cannot be checked, so it is refused.
      return {
        ok: false,
        message: `its schema failed (${error instanceof Error ? error.message : String(error)})`,
      };
    }
  }
  const type = parameter.type as InputType;
  return fitsType(type, value)
    ? { ok: true, value }
    : { ok: false, message: `expected ${article(type)}, got ${describe(value)}` };
}

/** Why `value` does not fit the input, or undefined when it does. */
export function checkInputValue(parameter: InputParameter, value: unknown): string | undefined {
  const checked = checkInput(parameter, value);
  return checked.ok ? undefined : checked.message;
}

/**
 * The values of a run's inputs: each declared input checked (parsed by its
 * schema), defaults filled in. Throws `AgentInputError` naming every missing,
 * unknown or mistyped input, before anything runs.
 */
export function resolveInputs(
  definition: AgentDefinition<unknown>,
  given: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const declared = definition.inputConfig?.inputs ?? {};
  const values: Record<string, unknown> = {};
  const issues: DefinitionIssue[] = [];
  const supplied = given ?? {};
  for (const name of Object.keys(supplied)) {
    if (!Object.hasOwn(declared, name)) {
      const known = Object.keys(declared);
      issues.push({
        path: name,
        message: `unknown input; declared: ${known.length > 0 ? known.join(', ') : 'none'}`,
      });
    }
  }
  for (const [name, parameter] of Object.entries(declared)) {
    const value = supplied[name];
    if (value === undefined) {
      if (parameter.default !== undefined) values[name] = parameter.default;
      else if (parameter.required === false) values[name] = '';
      else issues.push({ path: name, message: 'missing required input' });
      continue;
    }
    const checked = checkInput(parameter, value);
    if (checked.ok) values[name] = checked.value;
    else issues.push({ path: name, message: checked.message });
  }
  if (issues.length > 0) throw new AgentInputError(definition.name, issues);
  return values;
}

function fitsType(type: InputType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

function article(type: InputType): string {
  return type === 'array' || type === 'object' || type === 'integer' ? `an ${type}` : `a ${type}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
