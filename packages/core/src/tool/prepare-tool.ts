import type { $ZodType } from 'zod/v4/core';
import { ConfigError } from '../errors/config-error.js';
import type { JsonSchema, ToolSpec } from '../provider/provider.js';
import type { AnyTool, ToolInputCheck } from './tool.js';
import { validateJsonSchema } from './validate-json-schema.js';

/** A tool with its JSON Schema converted and its validator ready; made once per tool. */
export interface PreparedTool {
  tool: AnyTool;
  spec: ToolSpec;
  validate(input: unknown): ToolInputCheck<unknown>;
}

type ZodSchemaSupport = typeof import('./zod-schema-support.js');

let zodCore: ZodSchemaSupport | undefined;
const prepared = new WeakMap<AnyTool, PreparedTool>();

function isZodSchema(parameters: unknown): parameters is $ZodType {
  return typeof parameters === 'object' && parameters !== null && '_zod' in parameters;
}

/**
 * Loads zod's JSON Schema conversion and parser once, on the first run that
 * has a zod-defined tool, so importing `@agent-core/core` stays cheap.
 */
export async function loadSchemaSupport(tools: readonly AnyTool[]): Promise<void> {
  if (zodCore === undefined && tools.some((tool) => isZodSchema(tool.parameters))) {
    zodCore = await import('./zod-schema-support.js');
  }
}

function formatZodIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .map((issue) => `${['input', ...issue.path.map(String)].join('.')}: ${issue.message}`)
    .join('; ');
}

/** Converts and caches a tool's schema. Call `loadSchemaSupport` first for zod tools. */
export function prepareTool(tool: AnyTool): PreparedTool {
  const cached = prepared.get(tool);
  if (cached !== undefined) return cached;
  let result: PreparedTool;
  const parameters = tool.parameters;
  if (isZodSchema(parameters)) {
    const zod = zodCore;
    if (zod === undefined)
      throw new ConfigError('zod support was not loaded; call loadSchemaSupport(tools) first.');
    let schema: JsonSchema;
    try {
      schema = zod.toJSONSchema(parameters, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    } catch (error) {
      throw new ConfigError(`Tool '${tool.name}' has a zod schema that cannot be expressed as JSON Schema.`, {
        cause: error,
      });
    }
    delete schema.$schema;
    result = {
      tool,
      spec: { name: tool.name, description: tool.description, parameters: schema },
      validate(input) {
        let parsed: ReturnType<typeof zod.safeParse>;
        try {
          parsed = zod.safeParse(parameters, input);
        } catch (error) {
          // A refinement that throws (or an async one) is the schema's failure, never the run's.
          const reason = error instanceof Error ? error.message : String(error);
          return { ok: false, message: `the input schema failed while checking the input (${reason})` };
        }
        return parsed.success
          ? { ok: true, value: parsed.data }
          : { ok: false, message: formatZodIssues(parsed.error.issues) };
      },
    };
  } else {
    const schema = parameters as JsonSchema;
    // MCP servers often send "$schema"; some providers refuse keys they do not know.
    let sent = schema;
    if ('$schema' in schema) {
      const { $schema: _, ...rest } = schema;
      sent = rest;
    }
    result = {
      tool,
      spec: { name: tool.name, description: tool.description, parameters: sent },
      validate(input) {
        const problems = validateJsonSchema(schema, input);
        return problems.length === 0
          ? { ok: true, value: input }
          : { ok: false, message: problems.join('; ') };
      },
    };
  }
  prepared.set(tool, result);
  return result;
}
