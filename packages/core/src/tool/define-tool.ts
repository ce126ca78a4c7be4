import type { $ZodType, output } from 'zod/v4/core';
import { ConfigError } from '../errors/config-error.js';
import type { JsonSchema } from '../provider/provider.js';
import type { Tool, ToolContext, ToolOutput, ToolRisk } from './tool.js';

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** The fields of a tool definition, with `Input` inferred from `parameters`. */
export interface ToolDefinition<Schema, Input> {
  name: string;
  description: string;
  parameters: Schema;
  execute(input: Input, context: ToolContext): ToolOutput | Promise<ToolOutput>;
  timeoutMs?: number;
  risk?: ToolRisk;
  /** Safe to run twice; see `Tool.idempotent`. */
  idempotent?: boolean;
}

/**
 * Defines a tool. `parameters` is a zod 4 schema (input is typed from it) or a
 * raw JSON Schema object (input is a plain record). Throws `ConfigError` for a
 * name that some provider would refuse.
 *
 * @example
 * const add = defineTool({
 *   name: 'add',
 *   description: 'Adds two numbers',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => String(a + b),
 * });
 */
export function defineTool<Schema extends $ZodType>(
  definition: ToolDefinition<Schema, output<Schema>>,
): Tool<output<Schema>>;
export function defineTool(definition: ToolDefinition<JsonSchema, Record<string, unknown>>): Tool;
export function defineTool(definition: ToolDefinition<$ZodType | JsonSchema, never>): Tool<never> {
  if (typeof definition?.name !== 'string' || !toolNamePattern.test(definition.name)) {
    throw new ConfigError(
      `Tool name '${String(definition?.name)}' is invalid: use 1 to 64 letters, digits, '_' or '-' so every provider accepts it.`,
    );
  }
  if (typeof definition.execute !== 'function') {
    throw new ConfigError(`Tool '${definition.name}' needs an execute(input, context) function.`);
  }
  const parameters = definition.parameters;
  if (typeof parameters !== 'object' || parameters === null) {
    throw new ConfigError(
      `Tool '${definition.name}' needs parameters: a zod schema or a JSON Schema object.`,
    );
  }
  if ('_def' in parameters && !('_zod' in parameters)) {
    throw new ConfigError(
      `Tool '${definition.name}' uses a zod 3 schema; use zod 4 (import { z } from 'zod') or a JSON Schema.`,
    );
  }
  if (definition.timeoutMs !== undefined && !(definition.timeoutMs > 0)) {
    throw new ConfigError(
      `Tool '${definition.name}' has timeoutMs ${definition.timeoutMs}; use a positive number of milliseconds.`,
    );
  }
  return {
    name: definition.name,
    description: definition.description ?? '',
    parameters,
    execute: definition.execute,
    ...(definition.timeoutMs === undefined ? {} : { timeoutMs: definition.timeoutMs }),
    ...(definition.risk === undefined ? {} : { risk: definition.risk }),
    ...(definition.idempotent === undefined ? {} : { idempotent: definition.idempotent }),
  };
}
