import type { JsonSchema } from '../provider/provider.js';

/**
 * Checks `value` against the common subset of JSON Schema that tool
 * parameters use (type, properties, required, additionalProperties, items,
 * enum, const, bounds, anyOf / oneOf / allOf). Returns a list of problems,
 * each naming the path; empty means valid. Unknown keywords are ignored.
 */
export function validateJsonSchema(schema: JsonSchema, value: unknown, path = 'input'): string[] {
  const problems: string[] = [];
  check(schema, value, path, problems);
  return problems;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function matchesType(type: string, value: unknown): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'object':
      return typeOf(value) === 'object';
    default:
      return typeOf(value) === type;
  }
}

function check(schema: unknown, value: unknown, path: string, problems: string[]): void {
  if (schema === true || schema === undefined) return;
  if (schema === false) {
    problems.push(`${path} is not allowed`);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const rules = schema as Record<string, unknown>;

  if (rules.type !== undefined) {
    const types = Array.isArray(rules.type) ? (rules.type as string[]) : [rules.type as string];
    if (!types.some((type) => matchesType(type, value))) {
      problems.push(`${path} should be ${types.join(' or ')}, got ${typeOf(value)}`);
      return;
    }
  }
  if (Array.isArray(rules.enum) && !rules.enum.some((option) => option === value)) {
    problems.push(
      `${path} should be one of ${rules.enum.map((option) => JSON.stringify(option)).join(', ')}`,
    );
  }
  if ('const' in rules && rules.const !== value)
    problems.push(`${path} should be ${JSON.stringify(rules.const)}`);

  if (typeof value === 'number') {
    if (typeof rules.minimum === 'number' && value < rules.minimum)
      problems.push(`${path} should be >= ${rules.minimum}`);
    if (typeof rules.maximum === 'number' && value > rules.maximum)
      problems.push(`${path} should be <= ${rules.maximum}`);
  }
  if (typeof value === 'string') {
    if (typeof rules.minLength === 'number' && value.length < rules.minLength)
      problems.push(`${path} should have at least ${rules.minLength} characters`);
    if (typeof rules.maxLength === 'number' && value.length > rules.maxLength)
      problems.push(`${path} should have at most ${rules.maxLength} characters`);
  }
  if (Array.isArray(value)) {
    if (rules.items !== undefined && !Array.isArray(rules.items)) {
      for (let index = 0; index < value.length; index++)
        check(rules.items, value[index], `${path}[${index}]`, problems);
    }
    if (typeof rules.minItems === 'number' && value.length < rules.minItems)
      problems.push(`${path} should have at least ${rules.minItems} items`);
    if (typeof rules.maxItems === 'number' && value.length > rules.maxItems)
      problems.push(`${path} should have at most ${rules.maxItems} items`);
  }
  if (typeOf(value) === 'object') {
    const record = value as Record<string, unknown>;
    const properties = (rules.properties ?? {}) as Record<string, unknown>;
    if (Array.isArray(rules.required)) {
      for (const key of rules.required as string[]) {
        if (record[key] === undefined) problems.push(`${path}.${key} is required`);
      }
    }
    for (const [key, item] of Object.entries(record)) {
      if (key in properties) check(properties[key], item, `${path}.${key}`, problems);
      else if (rules.additionalProperties === false)
        problems.push(`${path}.${key} is not an expected property`);
      else if (typeof rules.additionalProperties === 'object')
        check(rules.additionalProperties, item, `${path}.${key}`, problems);
    }
  }
  if (Array.isArray(rules.allOf)) for (const part of rules.allOf) check(part, value, path, problems);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const options = rules[keyword];
    if (!Array.isArray(options)) continue;
    const fits = options.filter(
      (option) => validateJsonSchema(option as JsonSchema, value, path).length === 0,
    ).length;
    if (keyword === 'anyOf' ? fits === 0 : fits !== 1) {
      problems.push(
        `${path} does not match ${keyword === 'anyOf' ? 'any' : 'exactly one'} of the allowed shapes`,
      );
    }
  }
}
