import { z } from 'zod';
import type { AgentResult } from '../result/agent-result.js';
import { SubagentError } from '../errors/subagent-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { defineTool } from '../tool/define-tool.js';
import type { Tool, ToolContext, ToolRisk } from '../tool/tool.js';
import type { AgentDefinition, InputParameter } from './agent-definition.js';
import { ToolPauseRequest } from '../governance/tool-pause-request.js';
import { AgentExecutor, type SubagentState, subagentState } from './agent-executor.js';
import { lineageOf } from './agent-lineage.js';
import { validateDefinition } from './validate-definition.js';

/** Options of `asTool`. */
export interface AsToolOptions {
  /** Runs the subagent. Default: a new `AgentExecutor` with default options. */
  executor?: AgentExecutor;
  /** The tool's name. Default: the definition's name. */
  name?: string;
  /** What the calling model reads. Default: the definition's description. */
  description?: string;
  /** Deepest nesting allowed: a subagent at a greater depth is refused with an error result. Default 3. */
  maxDepth?: number;
  /** The tool's risk, for policies. */
  risk?: ToolRisk;
}

/**
 * Turns a definition into a tool another agent can call: its parameters are
 * the definition's inputs, and a call runs the definition as a subagent.
 *
 * Contract:
 * - The subagent gets only its definition's tools, never the caller's.
 * - Each of its events reaches the caller's stream as a `subagent` event
 *   naming the agent, its run id, its depth and the call that started it.
 * - The caller's abort (or the call's timeout) stops it at once; its own limits hold.
 * - Its usage counts into the caller's `usage` and `usageByAgent`.
 * - A child that pauses for approval (its policy asks and it has no approver,
 *   or its approver answers `later`) pauses the caller's run too: the call
 *   stays unanswered, the caller ends `await_user` with the child's approvals
 *   in `pendingApprovals` (`agentPath` naming the child first, `pausedCall`
 *   holding its state), and the caller's `resume({ decisions })` continues
 *   the child from that state with those decisions, never over.
 * - Beyond `maxDepth`, or a failed child run: an error result
 *   (`SubagentError`), the caller's run goes on.
 * - Its result is the output as JSON when the definition has an output schema, else its text.
 *
 * @example
 * const researcher = asTool(researchDefinition, { executor });
 * const lead = new Agent({ provider, model, tools: [researcher] });
 */
export function asTool(definition: AgentDefinition<unknown>, options: AsToolOptions = {}): Tool {
  validateDefinition(definition);
  const executor = options.executor ?? new AgentExecutor();
  const maxDepth = options.maxDepth ?? 3;
  const agentName = definition.name;
  return defineTool({
    name: options.name ?? agentName,
    description: options.description ?? definition.description,
    parameters: inputSchema(definition.inputConfig?.inputs ?? {}),
    ...(options.risk === undefined ? {} : { risk: options.risk }),
    async execute(input, context) {
      const parent = lineageOf(context.agent);
      const depth = (parent?.depth ?? 0) + 1;
      const path = [...(parent?.path ?? []), agentName];
      if (depth > maxDepth) {
        throw new SubagentError(
          'subagent_depth',
          `Subagent '${agentName}' was not run: it would be nested ${depth} deep and the limit is ${maxDepth} (asTool maxDepth). Agents: ${path.join(' > ')}. Finish the task without it.`,
          path,
        );
      }
      const resume = context.resume;
      const result = await executor.execute(definition, {
        inputs: input,
        signal: context.signal,
        lineage: { depth, path },
        onActivity: forward(context, agentName, depth),
        // After a pause inside the child, it continues from its stored state: it never starts over.
        ...(resume === undefined
          ? {}
          : { resume: { state: resume.state as SubagentState, decisions: resume.decisions } }),
      });
      for (const [name, usage] of Object.entries(result.usageByAgent ?? { [agentName]: result.usage }))
        context.run?.addUsage(name, usage);
      const paused = result.terminateReason === 'await_user' ? subagentState(result) : undefined;
      if (paused !== undefined && paused.pendingApprovals.length > 0) {
        // The caller's run pauses too, listing the child's approvals under this agent's name.
        throw new ToolPauseRequest(
          paused.pendingApprovals.map((approval) => ({
            ...approval,
            agentPath: [agentName, ...approval.agentPath],
          })),
          paused,
        );
      }
      return answer(agentName, path, result);
    },
  });
}

function forward(context: ToolContext, agent: string, depth: number): (event: AgentEvent) => void {
  const run = context.run;
  const toolCallId = context.toolCallId;
  return (event) => run?.emit({ type: 'subagent', agent, childRunId: event.runId, depth, toolCallId, event });
}

function answer(agentName: string, path: readonly string[], result: AgentResult<unknown>): string {
  if (result.terminateReason === 'completed') {
    if (result.outputValid === true) return JSON.stringify(result.output);
    if (result.outputValid === false) {
      throw new SubagentError(
        'subagent_failed',
        `Subagent '${agentName}' gave no valid output: ${result.error?.message ?? 'unknown reason'} Its raw answer: ${result.text}`,
        path,
        result.runId,
      );
    }
    return result.text;
  }
  if (result.terminateReason === 'await_user') {
    // Paused with nothing a person could decide (an orchestrator that returned await_user): nothing to resume.
    throw new SubagentError(
      'subagent_await_user',
      `Subagent '${agentName}' is waiting for a person's approval (agents: ${path.join(' > ')}).`,
      path,
      result.runId,
    );
  }
  throw new SubagentError(
    'subagent_failed',
    `Subagent '${agentName}' ended with ${result.terminateReason}${result.error === undefined ? '' : `: ${result.error.message}`}${result.text === '' ? '' : ` Its last answer: ${result.text}`}`,
    path,
    result.runId,
  );
}

/** The definition's inputs as a zod object: the subagent tool's parameters. */
function inputSchema(inputs: Record<string, InputParameter>): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, parameter] of Object.entries(inputs)) {
    let schema = (parameter.schema as z.ZodType | undefined) ?? typeSchema(parameter.type ?? 'string');
    if (parameter.description !== undefined) schema = schema.describe(parameter.description);
    shape[name] =
      parameter.default !== undefined || parameter.required === false ? schema.optional() : schema;
  }
  return z.strictObject(shape) as z.ZodType<Record<string, unknown>>;
}

function typeSchema(type: NonNullable<InputParameter['type']>): z.ZodType {
  switch (type) {
    case 'string':
      return z.string();
    case 'number':
      return z.number();
    case 'integer':
      return z.int();
    case 'boolean':
      return z.boolean();
    case 'array':
      return z.array(z.unknown());
    case 'object':
      return z.record(z.string(), z.unknown());
  }
}
