import { ContractError } from '../orchestrator/contract-error.js';
import type { OrchestratorTool } from '../orchestrator/orchestrator.js';
import type { AnyTool } from '../tool/tool.js';

const views = new WeakMap<AnyTool, OrchestratorTool>();

/**
 * The tool as an orchestrator sees it (`ctx.tools`): its name, description,
 * parameters and risk, with an `execute` that refuses with a `ContractError`
 * (`tool_outside_gate`), so no call can skip policies, approvals, validation,
 * the session log and the tool events. Made once per tool.
 */
export function toolView(tool: AnyTool): OrchestratorTool {
  const known = views.get(tool);
  if (known !== undefined) return known;
  const view: OrchestratorTool & { execute(): never } = {
    ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
    ...(tool.risk === undefined ? {} : { risk: tool.risk }),
    ...(tool.idempotent === undefined ? {} : { idempotent: tool.idempotent }),
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    execute() {
      throw new ContractError(
        'tool_outside_gate',
        `Tool '${tool.name}' was run directly from ctx.tools: that would skip input validation, policies, approvals, the session log and the tool events. Run the model's call with ctx.executeTool(call) (or ctx.executeTools(calls)); to run a tool of your own choosing, append an assistant message with the tool call first.`,
      );
    },
  };
  Object.freeze(view);
  views.set(tool, view);
  return view;
}

/** The views of a run's tools, in order. */
export function toolViews(tools: readonly AnyTool[]): readonly OrchestratorTool[] {
  return Object.freeze(tools.map(toolView));
}
