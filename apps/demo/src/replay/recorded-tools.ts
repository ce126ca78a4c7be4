import { type AgentMessage, type AnyTool, canonicalJson, type ToolResultMessage } from '@agent-core/core';
import { callsWithResults } from './replay-outcome.js';

// What core writes for a tool that threw: such a result is given back by throwing the same message.
const failedPattern = /^Tool '(?:[^']*)' failed: ([\s\S]*)$/;

/**
 * Today's tools, each answering from a stored history instead of running
 * (`--tools=recorded`): a call gets the result the history holds for the call
 * of the same id (a replay serves the recorded ids), else for the next call
 * of the same tool with the same input (a re-recording's calls have new ids).
 * A recorded failure is thrown again, so core words it as it did. A call the
 * history has no result for fails, saying so; nothing real runs.
 */
export function recordedTools(tools: readonly AnyTool[], history: readonly AgentMessage[]): AnyTool[] {
  const byId = new Map<string, ToolResultMessage>();
  const byInput = new Map<string, ToolResultMessage[]>();
  for (const { call, result } of callsWithResults(history)) {
    byId.set(call.id, result);
    const key = `${call.name} ${canonicalJson(call.input)}`;
    byInput.set(key, [...(byInput.get(key) ?? []), result]);
  }
  const used = new Set<ToolResultMessage>();
  const resultFor = (name: string, id: string, input: unknown): ToolResultMessage | undefined => {
    const same = byId.get(id);
    if (same !== undefined && same.toolName === name && !used.has(same)) return same;
    return byInput.get(`${name} ${canonicalJson(input)}`)?.find((result) => !used.has(result));
  };
  return tools.map((tool) => ({
    ...tool,
    execute: (input: unknown, context: { toolCallId: string }) => {
      const result = resultFor(tool.name, context.toolCallId, input);
      if (result === undefined)
        throw new Error('the stored session holds no result for this call (--tools=recorded runs no tool)');
      used.add(result);
      if (!result.isError) return result.content;
      const text = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
      throw new Error(failedPattern.exec(text)?.[1] ?? text);
    },
  })) as AnyTool[];
}
