import { defineTool } from '../tool/define-tool.js';
import type { AnyTool, ToolRisk } from '../tool/tool.js';

/** What a scripted call asks its tool to do: answer, throw, or hang past its timeout. */
export type ToolOutcome = 'value' | 'throw' | 'hang';

/** The kit's tools, one per risk a policy can tell apart. */
export const kitToolNames = ['read_note', 'write_note', 'run_job'] as const;

/** A kit tool's name. */
export type KitToolName = (typeof kitToolNames)[number];

const risks: Record<KitToolName, ToolRisk> = { read_note: 'read', write_note: 'write', run_job: 'execute' };

/** How long a kit tool may run before it is answered with a timeout error. */
export const kitToolTimeoutMs = 20;

const parameters = {
  type: 'object',
  properties: {
    outcome: { type: 'string', enum: ['value', 'throw', 'hang'] },
    size: { type: 'integer', minimum: 0 },
  },
  required: ['outcome', 'size'],
  additionalProperties: false,
};

/** The kit's tools and how many times each call id ran, over every agent of one scenario. */
export interface KitTools {
  tools: AnyTool[];
  executions: Map<string, number>;
  /** Executions per tool name. */
  runsByTool: Map<string, number>;
}

/**
 * Makes the tools of one scenario. Each does what its input says: `value`
 * answers with `size` words (`read_note` at once, the others after a tick),
 * `throw` throws, `hang` never settles and ignores its signal, so only its
 * timeout ends it.
 */
export function kitTools(): KitTools {
  const executions = new Map<string, number>();
  const runsByTool = new Map<string, number>();
  const tools = kitToolNames.map((name) =>
    defineTool({
      name,
      description: `The ${name.replace('_', ' ')} tool.`,
      risk: risks[name],
      parameters,
      timeoutMs: kitToolTimeoutMs,
      execute: (input, context) => {
        executions.set(context.toolCallId, (executions.get(context.toolCallId) ?? 0) + 1);
        runsByTool.set(name, (runsByTool.get(name) ?? 0) + 1);
        const outcome = input.outcome as ToolOutcome;
        const text = `${name} result: ${'word '.repeat(Number(input.size))}`.trim();
        if (outcome === 'throw') throw new Error(`${name} failed on purpose`);
        if (outcome === 'hang') return new Promise<never>(() => {});
        if (name === 'read_note') return text;
        return new Promise<string>((resolve) => setTimeout(resolve, 0, text));
      },
    }),
  );
  return { tools, executions, runsByTool };
}
