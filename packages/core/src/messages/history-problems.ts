import type { AgentMessage, AssistantMessage, ToolResultMessage } from './messages.js';

/** Options of `historyProblems`. */
export interface HistoryProblemsOptions {
  /**
   * Accept calls of the last assistant message that have no result yet (a
   * run paused for approval, or stopped mid-batch), as long as the results
   * it has come first and in call order: such a history is continued with
   * `resume()`, and the rest of it must still be valid.
   */
  allowPendingCalls?: boolean;
}

/**
 * What would make a provider refuse this history, as sentences; empty when
 * it can be sent as it is. Every tool call must have exactly one result,
 * right after its assistant message and in call order, and call ids must be
 * unique. Linear in the history; for tests, stored sessions and debugging.
 */
export function historyProblems(
  messages: readonly AgentMessage[],
  options: HistoryProblemsOptions = {},
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as AgentMessage;
    if (message.role === 'toolResult') {
      const id = (message as ToolResultMessage).toolCallId;
      problems.push(
        `message ${index}: the result for '${id}' does not follow the assistant message that called it`,
      );
      continue;
    }
    if (message.role !== 'assistant') continue;
    const calls = (message as AssistantMessage).content.filter((block) => block.type === 'toolCall');
    const results: ToolResultMessage[] = [];
    while (messages[index + 1]?.role === 'toolResult') results.push(messages[++index] as ToolResultMessage);
    const expected = calls.map((call) => call.id).join(', ');
    const actual = results.map((result) => result.toolCallId).join(', ');
    const pendingTail =
      options.allowPendingCalls === true &&
      index === messages.length - 1 &&
      results.every((result, position) => result.toolCallId === calls[position]?.id);
    if (expected !== actual && !pendingTail) {
      problems.push(
        `message ${index - results.length}: tool calls [${expected}] are answered by [${actual}]`,
      );
    }
    for (const call of calls) {
      if (seen.has(call.id))
        problems.push(`message ${index - results.length}: tool call id '${call.id}' is used twice`);
      seen.add(call.id);
    }
  }
  return problems;
}
