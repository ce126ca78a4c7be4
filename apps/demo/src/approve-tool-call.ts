import type { AnyTool, ToolCallBlock, ToolCallDecision } from '@agent-core/core';

/** Risks the demo asks about before running a tool. */
const askedRisks = new Set(['write', 'execute']);

/** Asks the person at the terminal a question and resolves with their answer. */
export type Ask = (question: string) => Promise<string>;

/**
 * A `beforeToolCall` hook that asks the person at the terminal before a tool
 * that writes or executes runs. With `--yes` every call is allowed; with no
 * terminal to ask (`ask` undefined), such calls are refused with a reason the model can read.
 */
export function approveToolCall(options: { yes: boolean; ask: Ask | undefined }) {
  return async (call: ToolCallBlock, tool: AnyTool): Promise<ToolCallDecision> => {
    if (tool.risk === undefined || !askedRisks.has(tool.risk) || options.yes) return undefined;
    if (options.ask === undefined) {
      return {
        block: `${tool.risk} tools need approval; the demo was run without a terminal (pass --yes to allow).`,
      };
    }
    const answer = await options.ask(`Allow ${call.name} ${JSON.stringify(call.input)}? [y/N] `);
    return /^y(es)?$/i.test(answer.trim()) ? undefined : { block: 'the user declined.' };
  };
}
