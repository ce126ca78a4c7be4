import type { AgentOptions } from './agent-options.js';
import type { SystemPromptSource } from '../loop/run-options.js';
import { ConfigError } from '../errors/config-error.js';
import { HookError } from '../errors/hook-error.js';
import type { AgentMessage } from '../messages/messages.js';
import type { ToolSpec } from '../provider/provider.js';
import { loadSchemaSupport, prepareTool, type PreparedTool } from '../tool/prepare-tool.js';
import type { AnyTool } from '../tool/tool.js';
import type { OrchestratorTool } from '../orchestrator/orchestrator.js';
import { defaultGuard, type Guard } from '../governance/guard.js';
import type { ApprovalDecision } from '../governance/pending-approval.js';
import type { CallResume } from '../loop/paused-call.js';
import { toPolicy, type Policy, type PolicyOption } from '../governance/policy.js';
import { type ApprovalMemory, RunGovernance } from '../loop/run-governance.js';

/**
 * What a `beforeRun` hook may change for one run: the model, the system
 * prompt, the tools and the policy. The agent's own options stay as they are.
 */
export interface BeforeRunContext {
  readonly runId: string;
  /** The history as the run starts (the prompt not yet appended). */
  readonly messages: readonly AgentMessage[];
  /** True for `agent.resume()`. */
  readonly resuming: boolean;
  model: string;
  systemPrompt: SystemPromptSource | undefined;
  tools: readonly AnyTool[];
  policy: PolicyOption | undefined;
}

/**
 * Runs before a run's first model call and may change its context. Hooks run
 * in order, each seeing the previous one's changes; a throw ends the run with
 * a `HookError` before any model call.
 */
export type BeforeRunHook = (context: BeforeRunContext) => void | Promise<void>;

/** The tools of a run, converted once. */
export interface RunTools {
  tools: readonly AnyTool[];
  byName: Map<string, PreparedTool>;
  specs: ToolSpec[];
  /** The tools as orchestrators get them (`ctx.tools`), made when the run starts. */
  views?: readonly OrchestratorTool[];
}

/** What a run uses once its hooks ran and its governance is set up. */
export interface RunSetup {
  model: string;
  systemPrompt: SystemPromptSource | undefined;
  tools: RunTools;
  governance: RunGovernance | undefined;
}

/** True when a run needs `prepareRun`: a beforeRun hook, a policy, a guard, intents or decisions to apply. */
export function needsRunSetup(
  options: AgentOptions,
  decisions: ReadonlyMap<string, unknown> | undefined,
): boolean {
  return (
    options.hooks?.beforeRun !== undefined ||
    options.policy !== undefined ||
    (options.guard !== undefined && options.guard !== false) ||
    options.intentRequired === true ||
    (decisions !== undefined && decisions.size > 0)
  );
}

/**
 * Runs the `beforeRun` hooks, prepares tools they changed, hides the tools
 * the policy denies outright, and builds the run's governance. Throws
 * `HookError` when a hook throws and `ConfigError` for tools it broke.
 */
export async function prepareRun(input: {
  options: AgentOptions;
  runId: string;
  messages: readonly AgentMessage[];
  resuming: boolean;
  tools: RunTools;
  decisions: Map<string, ApprovalDecision | CallResume> | undefined;
  memory: ApprovalMemory;
}): Promise<RunSetup> {
  const { options } = input;
  const context: BeforeRunContext = {
    runId: input.runId,
    messages: input.messages,
    resuming: input.resuming,
    model: options.model,
    systemPrompt: options.systemPrompt,
    tools: input.tools.tools,
    policy: options.policy,
  };
  const hooks = options.hooks?.beforeRun;
  if (hooks !== undefined) {
    for (const hook of Array.isArray(hooks) ? hooks : [hooks as BeforeRunHook]) {
      try {
        await hook(context);
      } catch (error) {
        throw new HookError(
          `A beforeRun hook threw, so the run ended before any model call: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
    }
    if (typeof context.model !== 'string' || context.model === '') {
      throw new HookError(
        'A beforeRun hook set an empty model; set a model name such as "claude-sonnet-5-5".',
      );
    }
  }
  let tools = input.tools;
  if (context.tools !== tools.tools) tools = await prepareTools(context.tools);
  const policy: Policy | undefined = context.policy === undefined ? undefined : toPolicy(context.policy);
  if (policy?.toolDecision !== undefined) {
    // Once per run: a tool every call of which would be denied is not offered to the model at all.
    const offered = tools.tools.filter((tool) => policy.toolDecision?.(tool) !== 'deny');
    if (offered.length !== tools.tools.length) {
      tools = {
        tools: tools.tools,
        byName: tools.byName,
        specs: offered.map((tool) => (tools.byName.get(tool.name) as PreparedTool).spec),
      };
    }
  }
  const guardOption = options.guard;
  const guard: Guard | undefined =
    guardOption === true ? defaultGuard() : guardOption === false ? undefined : guardOption;
  const decisions = input.decisions ?? new Map<string, ApprovalDecision | CallResume>();
  const governance =
    policy !== undefined || guard !== undefined || options.intentRequired === true || decisions.size > 0
      ? new RunGovernance({
          policy,
          guard,
          approve: options.approve,
          intentRequired: options.intentRequired === true,
          decisions,
          memory: input.memory,
        })
      : undefined;
  return { model: context.model, systemPrompt: context.systemPrompt, tools, governance };
}

async function prepareTools(tools: readonly AnyTool[]): Promise<RunTools> {
  const byName = new Map<string, PreparedTool>();
  for (const tool of tools) {
    if (byName.has(tool.name))
      throw new ConfigError(
        `A beforeRun hook left two tools named '${tool.name}'; tool names must be unique.`,
      );
    byName.set(tool.name, undefined as unknown as PreparedTool);
  }
  await loadSchemaSupport(tools);
  const specs: ToolSpec[] = [];
  for (const tool of tools) {
    const prepared = prepareTool(tool);
    byName.set(tool.name, prepared);
    specs.push(prepared.spec);
  }
  return { tools, byName, specs };
}
