import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { AgentDefinitionError, type DefinitionIssue } from '../errors/agent-definition-error.js';
import { policyProfileNames } from '../governance/policy.js';
import type { AgentDefinition } from './agent-definition.js';
import { checkInputValue } from './resolve-inputs.js';
import { templateVariables } from './substitute-template.js';

const namePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const identifierPattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

const isZodSchema = (value: unknown): value is $ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value;
const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null;

const zodSchema = z.custom<$ZodType>(isZodSchema, { message: 'expected a zod 4 schema' });
const provider = z.union([
  z.string().min(1),
  z.custom((value) => isObject(value) && typeof (value as { stream?: unknown }).stream === 'function', {
    message: 'expected a Provider (an object with a stream() method) or a registered provider name',
  }),
]);
const orchestrator = z.union([
  z.string().min(1),
  z.custom((value) => isObject(value) && typeof (value as { run?: unknown }).run === 'function', {
    message: 'expected an Orchestrator (an object with a run() method) or a registered orchestrator name',
  }),
]);
const tool = z.union([
  z.string().min(1),
  z.custom(
    (value) =>
      isObject(value) &&
      typeof (value as { name?: unknown }).name === 'string' &&
      typeof (value as { execute?: unknown }).execute === 'function',
    { message: 'expected a Tool (from defineTool) or a tool or tool pack name' },
  ),
]);
const inputParameter = z.strictObject({
  description: z.string().optional(),
  type: z.enum(['string', 'number', 'integer', 'boolean', 'array', 'object']).optional(),
  schema: zodSchema.optional(),
  required: z.boolean().optional(),
  default: z.unknown().optional(),
});

const definitionSchema = z.strictObject({
  name: z
    .string()
    .regex(namePattern, 'use 1 to 64 letters, digits, _ or - (it is also the subagent tool name)'),
  description: z.string().min(1, 'describe what the agent does (a parent model reads it)'),
  promptConfig: z.strictObject({
    systemPrompt: z.string().optional(),
    query: z.string().optional(),
    initialMessages: z.array(z.looseObject({ role: z.string() })).optional(),
  }),
  modelConfig: z.strictObject({
    provider,
    providerOptions: z.record(z.string(), z.unknown()).optional(),
    model: z.string().min(1),
    temperature: z.number().min(0).max(2).optional(),
    maxOutputTokens: z.int().positive().optional(),
  }),
  runConfig: z
    .strictObject({
      maxTurns: z.int().positive().optional(),
      timeoutMs: z.number().positive().optional(),
      maxTokens: z.int().positive().optional(),
      toolExecution: z.enum(['sequential', 'parallel']).optional(),
      orchestrator: orchestrator.optional(),
    })
    .optional(),
  toolConfig: z
    .strictObject({
      tools: z.array(tool).optional(),
      packOptions: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    })
    .optional(),
  inputConfig: z
    .strictObject({
      inputs: z.record(z.string().regex(identifierPattern, 'input names are identifiers'), inputParameter),
    })
    .optional(),
  outputConfig: z
    .strictObject({
      outputName: z.string().regex(identifierPattern, 'the output name is an identifier').optional(),
      description: z.string().optional(),
      schema: zodSchema,
      mode: z.enum(['tool', 'forced', 'native']).optional(),
      toolName: z.string().regex(namePattern, 'use 1 to 64 letters, digits, _ or -').optional(),
      maxAttempts: z.int().positive().optional(),
    })
    .optional(),
  governanceConfig: z
    .strictObject({
      policy: z
        .custom(
          (value) =>
            typeof value === 'function' ||
            isObject(value) ||
            (policyProfileNames as readonly unknown[]).includes(value),
          {
            message: `expected a policy: a profile name (${policyProfileNames.join(', ')}), rules, a Policy or a function`,
          },
        )
        .optional(),
      approve: z
        .custom((value) => typeof value === 'function', { message: 'expected an approver function' })
        .optional(),
      guard: z
        .union([
          z.boolean(),
          z.custom((value) => isObject(value) && typeof (value as { check?: unknown }).check === 'function', {
            message: 'expected a Guard: an object with a check(observation) method',
          }),
        ])
        .optional(),
      intentRequired: z.boolean().optional(),
    })
    .optional(),
  logger: z.custom((value) => isObject(value), { message: 'expected a Logger' }).optional(),
});

const validated = new WeakSet<object>();

/**
 * Checks a definition's shape with zod, then what a shape cannot say: each
 * input has a type or a schema and a default that fits it, and every `${name}`
 * in the prompts is a declared input. Throws `AgentDefinitionError`; a
 * definition that passed is not checked again.
 */
export function validateDefinition(definition: AgentDefinition<unknown>): void {
  if (typeof definition === 'object' && definition !== null && validated.has(definition)) return;
  const name = typeof (definition as { name?: unknown })?.name === 'string' ? definition.name : '(unnamed)';
  const parsed = definitionSchema.safeParse(definition);
  if (!parsed.success) {
    throw new AgentDefinitionError(
      name,
      parsed.error.issues.map((issue) => ({
        path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(definition)',
        message:
          issue.code === 'unrecognized_keys'
            ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `'${key}'`).join(', ')}`
            : issue.message,
      })),
    );
  }
  const issues: DefinitionIssue[] = [];
  const inputs = definition.inputConfig?.inputs ?? {};
  for (const [inputName, parameter] of Object.entries(inputs)) {
    const path = `inputConfig.inputs.${inputName}`;
    if ((parameter.type === undefined) === (parameter.schema === undefined)) {
      issues.push({ path, message: 'give either a type or a zod schema' });
      continue;
    }
    if (parameter.default !== undefined) {
      const problem = checkInputValue(parameter, parameter.default);
      if (problem !== undefined) issues.push({ path: `${path}.default`, message: problem });
    }
  }
  const prompt = definition.promptConfig;
  const templates: [string, string | undefined][] = [
    ['promptConfig.systemPrompt', prompt.systemPrompt],
    ['promptConfig.query', prompt.query],
  ];
  prompt.initialMessages?.forEach((message, index) => {
    if (message.role === 'user' && typeof message.content === 'string')
      templates.push([`promptConfig.initialMessages.${index}.content`, message.content]);
  });
  for (const [path, template] of templates) {
    if (template === undefined) continue;
    for (const variable of templateVariables(template)) {
      if (!Object.hasOwn(inputs, variable))
        issues.push({ path, message: `uses \${${variable}}, which is not a declared input` });
    }
  }
  if (definition.outputConfig?.mode === 'forced' && (definition.toolConfig?.tools?.length ?? 0) > 0) {
    issues.push({
      path: 'outputConfig.mode',
      message:
        "'forced' makes every model call call the output tool, so the definition's other tools could never run; use 'tool', or give the agent no tools",
    });
  }
  if (issues.length > 0) throw new AgentDefinitionError(name, issues);
  validated.add(definition);
}
