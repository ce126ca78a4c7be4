import type { AgentEvent, AgentMessage, AssistantMessage, ToolResultMessage } from '@agent-core/core';
import { expect } from 'vitest';

/**
 * Asserts the history could be sent to any provider as it is: every tool call
 * has exactly one result, right after its assistant message, before anything else.
 */
export function expectValidHistory(messages: readonly AgentMessage[]): void {
  const seen = new Set<string>();
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as AgentMessage;
    if (message.role === 'toolResult') {
      expect.fail(
        `toolResult ${(message as ToolResultMessage).toolCallId} at ${index} has no call right before it`,
      );
    }
    if (message.role !== 'assistant') continue;
    const calls = (message as AssistantMessage).content.filter((block) => block.type === 'toolCall');
    const results: ToolResultMessage[] = [];
    while (messages[index + 1]?.role === 'toolResult') results.push(messages[++index] as ToolResultMessage);
    expect(results.map((result) => result.toolCallId)).toEqual(calls.map((call) => call.id));
    for (const call of calls) {
      expect(seen.has(call.id), `duplicate tool call id ${call.id}`).toBe(false);
      seen.add(call.id);
    }
  }
}

/** The event types of a run, in order. */
export function typesOf(events: readonly AgentEvent[]): string[] {
  return events.map((event) => event.type);
}

/** Collects every event of a run, then its result. */
export async function collect(run: AsyncIterable<AgentEvent> & { result(): Promise<unknown> }) {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}
