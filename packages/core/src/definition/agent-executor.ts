import { Agent } from '../agent/agent.js';
import type { AgentOptions } from '../agent/agent-options.js';
import type { AgentResult } from '../result/agent-result.js';
import { ConfigError } from '../errors/config-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { Logger } from '../logger/logger.js';
import type { AgentMessage } from '../messages/messages.js';
import type { ApprovalDecision, PendingApproval } from '../governance/pending-approval.js';
import type { Orchestrator } from '../orchestrator/orchestrator.js';
import type { Provider } from '../provider/provider.js';
import { getDefaultOrchestratorName, getOrchestrator, getProvider } from '../registry/registries.js';
import { ToolRegistry } from '../registry/tool-registry.js';
import type { AnyTool } from '../tool/tool.js';
import type { AgentDefinition } from './agent-definition.js';
import { type AgentLineage, setLineage } from './agent-lineage.js';
import { type AgentRegistry, defaultAgentRegistry } from './agent-registry.js';
import { resolveInputs } from './resolve-inputs.js';
import { StructuredOutput } from './structured-output.js';
import { substituteTemplate } from './substitute-template.js';
import { validateDefinition } from './validate-definition.js';
import { withStructuredOutput } from './with-structured-output.js';

/** Options of `new AgentExecutor(...)`. */
export interface AgentExecutorOptions {
  /** Where `execute(name)` looks definitions up. Default `defaultAgentRegistry`. */
  registry?: AgentRegistry;
  /** Resolves tool names in `toolConfig.tools`: its tools first, then its packs and the registered packs. */
  toolRegistry?: ToolRegistry;
  /** Providers by name, tried before `resolveProvider` and the registered providers. */
  providers?: Readonly<Record<string, Provider>>;
  /** Resolves a provider name; default `getProvider(name, modelConfig.providerOptions)`. */
  resolveProvider?: (name: string, options: Record<string, unknown> | undefined) => Provider;
  /** The orchestrator of definitions that name none. Default: the registered default. */
  orchestrator?: Orchestrator;
  /** Receives warnings of every run; a definition's own `logger` wins. */
  logger?: Logger;
}

/** Options of one `execute`. */
export interface ExecuteOptions {
  /** Values of the definition's declared inputs. */
  inputs?: Readonly<Record<string, unknown>>;
  /** Aborts the run; it ends with `aborted`. */
  signal?: AbortSignal;
  /** Receives every event of the run, synchronously, in order. */
  onActivity?: (event: AgentEvent) => void;
  /** Where this run sits among subagents; `asTool` sets it. Default: a root run. */
  lineage?: AgentLineage;
  /**
   * Continues a run that paused with `await_user` from its stored state
   * (`subagentState(result)`), with decisions for its pending approvals,
   * instead of starting with the query; `asTool` sets it on resume.
   */
  resume?: { state: SubagentState; decisions: readonly ApprovalDecision[] };
}

/**
 * What a definition's run that paused for approval needs to continue, as
 * plain JSON: its history, its pending approvals and the tools allowed always.
 */
export interface SubagentState {
  messages: AgentMessage[];
  pendingApprovals: PendingApproval[];
  alwaysAllowedTools: string[];
}

// Keyed by the result object `execute` returns, so the state travels without a field on AgentResult.
const pausedStates = new WeakMap<object, SubagentState>();

/** The state to continue from, for a result of `AgentExecutor.execute` that ended `await_user`; else undefined. */
export function subagentState(result: AgentResult<unknown>): SubagentState | undefined {
  return pausedStates.get(result);
}

/**
 * Runs agent definitions: checks the inputs, fills the prompt templates,
 * resolves provider, tools and orchestrator, runs one fresh `Agent` and
 * returns its result with typed `output`.
 *
 * Contract:
 * - A bad definition (`AgentDefinitionError`), bad inputs (`AgentInputError`),
 *   an unknown name (`RegistryError`) or an unresolvable provider, tool or
 *   orchestrator reject `execute` before any model call.
 * - Once the run starts, `execute` resolves, never rejects: failures are in
 *   `terminateReason` and `error`, invalid output in `outputValid: false`.
 * - Each run gets only the tools its definition lists (plus the output tool).
 *
 * @example
 * const executor = new AgentExecutor({ registry });
 * const result = await executor.execute(summarizer, { inputs: { text } });
 * if (result.outputValid) console.log(result.output.summary);
 */
export class AgentExecutor {
  readonly registry: AgentRegistry;
  readonly #options: AgentExecutorOptions;
  readonly #toolRegistry: ToolRegistry;

  constructor(options: AgentExecutorOptions = {}) {
    this.#options = options;
    this.registry = options.registry ?? defaultAgentRegistry;
    this.#toolRegistry = options.toolRegistry ?? new ToolRegistry();
  }

  /** Runs a definition, or the registered definition of that name. */
  execute<TOutput>(
    definition: AgentDefinition<TOutput>,
    options?: ExecuteOptions,
  ): Promise<AgentResult<TOutput>>;
  execute(name: string, options?: ExecuteOptions): Promise<AgentResult<unknown>>;
  async execute(
    target: AgentDefinition<unknown> | string,
    options: ExecuteOptions = {},
  ): Promise<AgentResult<unknown>> {
    const definition = typeof target === 'string' ? this.registry.require(target) : target;
    validateDefinition(definition);
    const inputs = resolveInputs(definition, options.inputs);
    const prompt = definition.promptConfig;
    const model = definition.modelConfig;
    const run = definition.runConfig;
    const tools = this.#tools(definition);
    let orchestrator = this.#orchestrator(definition);
    let output: StructuredOutput | undefined;
    if (definition.outputConfig !== undefined) {
      output = new StructuredOutput(definition.name, definition.outputConfig);
      if (output.mode !== 'native') tools.push(output.tool(undefined));
      orchestrator = withStructuredOutput(orchestrator, output);
    }
    const agent = new Agent({
      name: definition.name,
      provider: this.#provider(model.provider, model.providerOptions),
      model: model.model,
      ...(prompt.systemPrompt === undefined
        ? {}
        : { systemPrompt: substituteTemplate(prompt.systemPrompt, inputs) }),
      tools,
      orchestrator,
      limits: { maxTurns: run?.maxTurns, timeoutMs: run?.timeoutMs, maxTokens: run?.maxTokens },
      ...(run?.toolExecution === undefined ? {} : { toolExecution: run.toolExecution }),
      ...(model.temperature === undefined ? {} : { temperature: model.temperature }),
      ...(model.maxOutputTokens === undefined ? {} : { maxOutputTokens: model.maxOutputTokens }),
      messages:
        options.resume === undefined
          ? (prompt.initialMessages ?? []).map((message) => templated(message, inputs))
          : structuredClone(options.resume.state.messages),
      ...(options.resume === undefined
        ? {}
        : {
            pendingApprovals: options.resume.state.pendingApprovals,
            alwaysAllowedTools: options.resume.state.alwaysAllowedTools,
          }),
      ...governanceOptions(definition),
      ...((definition.logger ?? this.#options.logger)
        ? { logger: definition.logger ?? this.#options.logger }
        : {}),
    });
    setLineage(agent, options.lineage ?? { depth: 0, path: [definition.name] });
    const onActivity = options.onActivity;
    const unsubscribe = onActivity === undefined ? undefined : agent.subscribe(onActivity);
    try {
      const signal = options.signal === undefined ? {} : { signal: options.signal };
      let run: ReturnType<Agent['prompt']>;
      if (options.resume === undefined) {
        const query =
          prompt.query === undefined ? 'Begin the task.' : substituteTemplate(prompt.query, inputs);
        run = agent.prompt(query, signal);
      } else run = agent.resume({ ...signal, decisions: options.resume.decisions });
      const ran = await run.result();
      const result =
        ran.usageByAgent === undefined
          ? { ...ran, usageByAgent: { [definition.name]: { ...ran.usage } } }
          : ran;
      if (result.terminateReason === 'await_user') {
        pausedStates.set(result, {
          messages: structuredClone([...agent.messages]),
          pendingApprovals: agent.pendingApprovals,
          alwaysAllowedTools: agent.alwaysAllowedTools,
        });
      }
      return result;
    } finally {
      unsubscribe?.();
    }
  }

  #tools(definition: AgentDefinition<unknown>): AnyTool[] {
    const config = definition.toolConfig;
    const tools: AnyTool[] = [];
    for (const entry of config?.tools ?? []) {
      if (typeof entry !== 'string') tools.push(entry);
      else {
        const tool = this.#toolRegistry.get(entry);
        if (tool !== undefined) tools.push(tool);
        else tools.push(...this.#toolRegistry.resolvePacks([entry], config?.packOptions));
      }
    }
    return tools;
  }

  #provider(provider: Provider | string, providerOptions: Record<string, unknown> | undefined): Provider {
    if (typeof provider !== 'string') return provider;
    const known = this.#options.providers?.[provider];
    if (known !== undefined) return known;
    const resolve = this.#options.resolveProvider;
    return resolve === undefined
      ? getProvider(provider, providerOptions)
      : resolve(provider, providerOptions);
  }

  #orchestrator(definition: AgentDefinition<unknown>): Orchestrator {
    const chosen = definition.runConfig?.orchestrator;
    if (typeof chosen === 'string') return getOrchestrator(chosen);
    if (chosen !== undefined) return chosen;
    if (this.#options.orchestrator !== undefined) return this.#options.orchestrator;
    const name = getDefaultOrchestratorName();
    if (name === undefined) {
      throw new ConfigError(
        `Agent definition '${definition.name}' has no orchestrator: set runConfig.orchestrator, pass one to the AgentExecutor, or import '@agent-core/orchestrator-agentic'.`,
      );
    }
    return getOrchestrator(name);
  }
}

function governanceOptions(definition: AgentDefinition<unknown>): Partial<AgentOptions> {
  const config = definition.governanceConfig;
  if (config === undefined) return {};
  const options: Partial<AgentOptions> = {};
  if (config.policy !== undefined) options.policy = config.policy;
  if (config.approve !== undefined) options.approve = config.approve;
  if (config.guard !== undefined) options.guard = config.guard;
  if (config.intentRequired !== undefined) options.intentRequired = config.intentRequired;
  return options;
}

function templated(message: AgentMessage, inputs: Record<string, unknown>): AgentMessage {
  const user = message as { role: string; content: unknown };
  if (user.role !== 'user' || typeof user.content !== 'string') return message;
  return { ...message, content: substituteTemplate(user.content, inputs) } as AgentMessage;
}
