import { createInterface } from 'node:readline/promises';
import type { AnyTool, ToolCallBlock, ToolCallDecision } from '@agent-core/core';

/** Risks the demo asks about before running a tool. */
const askedRisks = new Set(['write', 'execute']);

/**
 * A `beforeToolCall` hook that asks the person at the terminal before a tool
 * that writes or executes runs. With `--yes` every call is allowed; with no
 * terminal to ask, such calls are refused with a reason the model can read.
 */
export function approveToolCall(options: { yes: boolean; interactive: boolean }) {
  return async (call: ToolCallBlock, tool: AnyTool): Promise<ToolCallDecision> => {
    if (tool.risk === undefined || !askedRisks.has(tool.risk) || options.yes) return undefined;
    if (!options.interactive) {
      return {
        block: `${tool.risk} tools need approval; the demo was run without a terminal (pass --yes to allow).`,
      };
    }
    const question = createInterface({ input: process.stdin, output: process.stderr });
    try {
      const answer = await question.question(`Allow ${call.name} ${JSON.stringify(call.input)}? [y/N] `);
      return /^y(es)?$/i.test(answer.trim()) ? undefined : { block: 'the user declined.' };
    } finally {
      question.close();
    }
  };
}
