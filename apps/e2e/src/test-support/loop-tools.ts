import { type AnyTool, defineTool, type ToolRisk } from '@agent-core/core';
import { z } from 'zod';

/** What a scripted call asks its tool to do: answer, throw, or hang past its timeout. */
export type ToolOutcome = 'value' | 'throw' | 'hang';

/** The tools every property run offers, by risk, so policies can treat them apart. */
export const toolNames = ['read_note', 'write_note', 'run_job'] as const;

/** A tool name the model may call: one of the tools, or one that does not exist. */
export type CalledTool = (typeof toolNames)[number] | 'missing_tool';

const risks: Record<(typeof toolNames)[number], ToolRisk> = {
  read_note: 'read',
  write_note: 'write',
  run_job: 'execute',
};

/** The tools of one property run, and how many times each call id ran. */
export interface LoopTools {
  tools: AnyTool[];
  /** Executions per tool call id, over every agent of the run: a tool must never run twice. */
  executions: Map<string, number>;
}

/** How long a tool may run before it is answered with a timeout error. */
export const toolTimeoutMs = 15;

const parameters = z.object({ outcome: z.enum(['value', 'throw', 'hang']), size: z.number().int().min(0) });

/**
 * Makes the tools. Each does what its input says: `value` answers with a text
 * of `size` words, `throw` throws, `hang` never settles and ignores its signal
 * (the worst a tool can do), so only its timeout ends it.
 */
export function loopTools(): LoopTools {
  const executions = new Map<string, number>();
  const tools = toolNames.map((name) =>
    defineTool({
      name,
      description: `The ${name.replace('_', ' ')} tool.`,
      risk: risks[name],
      parameters,
      timeoutMs: toolTimeoutMs,
      execute: async ({ outcome, size }, context) => {
        executions.set(context.toolCallId, (executions.get(context.toolCallId) ?? 0) + 1);
        if (outcome === 'throw') throw new Error(`${name} failed on purpose`);
        if (outcome === 'hang') await new Promise<never>(() => {});
        return `${name} result: ${'word '.repeat(size)}`.trim();
      },
    }),
  );
  return { tools, executions };
}
