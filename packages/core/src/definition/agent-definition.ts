import type { $ZodType } from 'zod/v4/core';
import type { Logger } from '../logger/logger.js';
import type { AgentMessage } from '../messages/messages.js';
import type { Orchestrator, ToolExecution } from '../orchestrator/orchestrator.js';
import type { Provider } from '../provider/provider.js';
import type { AnyTool } from '../tool/tool.js';
import type { Approver } from '../governance/approval.js';
import type { Guard } from '../governance/guard.js';
import type { PolicyOption } from '../governance/policy.js';
import { validateDefinition } from './validate-definition.js';

/** The prompts of a definition; `${input}` in them is replaced by the run's inputs. */
export interface PromptConfig {
  systemPrompt?: string;
  /** The user message that starts each run. Default: a request to begin the task the system prompt describes. */
  query?: string;
  /** Messages placed before the query, e.g. examples; text in user messages is templated too. */
  initialMessages?: readonly AgentMessage[];
}

/** Which model a definition runs on. */
export interface ModelConfig {
  /** A `Provider`, or the name of one registered with `registerProvider` (or known to the executor). */
  provider: Provider | string;
  /** Passed to the provider factory when `provider` is a name. */
  providerOptions?: Record<string, unknown>;
  model: string;
  temperature?: number;
  maxOutputTokens?: number;
}

/** The limits and loop of a definition's runs. */
export interface RunConfig {
  /** Model calls per run. Default 25. */
  maxTurns?: number;
  timeoutMs?: number;
  /** Token budget per run, subagents' tokens included. */
  maxTokens?: number;
  toolExecution?: ToolExecution;
  /** An orchestrator or a registered orchestrator's name. Default: the executor's, then the registered default. */
  orchestrator?: Orchestrator | string;
}

/** The tools a definition's runs get, and only these. */
export interface ToolConfig {
  /** Tools, or names: a tool of the executor's `ToolRegistry`, else a tool pack (`registerToolPack`). */
  tools?: readonly (AnyTool | string)[];
  /** Options passed to each named pack's factory, by pack name. */
  packOptions?: Record<string, Record<string, unknown>>;
}

/**
 * The governance of a definition's runs, as the Agent options of the same
 * names. Without an `approve`, a call the policy asks about pauses the run;
 * as a subagent, that pauses the root run (see `asTool`).
 */
export interface GovernanceConfig {
  policy?: PolicyOption;
  approve?: Approver;
  guard?: Guard | boolean;
  intentRequired?: boolean;
}

/** The JSON types an input may be declared with instead of a zod schema. */
export type InputType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';

/** One named input: a `type` or a zod `schema`, required unless it has a default or `required: false`. */
export interface InputParameter {
  description?: string;
  type?: InputType;
  schema?: $ZodType;
  required?: boolean;
  default?: unknown;
}

/** The named inputs of a definition; as a subagent tool they are its parameters. */
export interface InputConfig {
  inputs: Record<string, InputParameter>;
}

/** How the run delivers structured output. */
export interface OutputConfig<TOutput> {
  /** Name of the output; a schema that is not an object is asked for as `{ [outputName]: value }`. Default `output`. */
  outputName?: string;
  description?: string;
  /** A zod 4 schema; `result.output` has its output type. */
  schema: $ZodType<TOutput>;
  /**
   * `tool` (default): the model calls a tool whose parameters are the schema.
   * `forced`: the same tool, with every model call required to call it
   * (`toolChoice`), as Anthropic's structured output works; for definitions
   * with no other tools. `native`: the provider's JSON-schema response format (OpenAI).
   */
  mode?: 'tool' | 'forced' | 'native';
  /** Name of the output tool in `tool` mode. Default `complete_task`. */
  toolName?: string;
  /** Invalid attempts before the run ends with the raw content and `outputValid: false`. Default 3. */
  maxAttempts?: number;
}

/**
 * An agent declared as typed configuration: validated once (by `defineAgent`,
 * `AgentRegistry.register` or the executor) and run any number of times by an `AgentExecutor`.
 */
export interface AgentDefinition<TOutput = unknown> {
  /** Unique in its registry; also the default tool name as a subagent, so 1 to 64 of `a-z A-Z 0-9 _ -`. */
  name: string;
  description: string;
  promptConfig: PromptConfig;
  modelConfig: ModelConfig;
  runConfig?: RunConfig;
  toolConfig?: ToolConfig;
  inputConfig?: InputConfig;
  outputConfig?: OutputConfig<TOutput>;
  /** Policy, approver, guard and intents of its runs. */
  governanceConfig?: GovernanceConfig;
  /** Receives the runs' warnings; default silent. */
  logger?: Logger;
}

/**
 * Validates a definition and returns it with `TOutput` inferred from
 * `outputConfig.schema`, so `result.output` is typed. Throws `AgentDefinitionError`
 * naming the definition and each bad field.
 *
 * @example
 * const summarizer = defineAgent({
 *   name: 'summarizer',
 *   description: 'Summarizes a text',
 *   promptConfig: { systemPrompt: 'Summarize this text: ${text}' },
 *   modelConfig: { provider: 'mock', model: 'mock' },
 *   inputConfig: { inputs: { text: { type: 'string' } } },
 *   outputConfig: { schema: z.object({ summary: z.string() }) },
 * });
 */
export function defineAgent<TOutput = unknown>(
  definition: AgentDefinition<TOutput>,
): AgentDefinition<TOutput> {
  validateDefinition(definition);
  return definition;
}
