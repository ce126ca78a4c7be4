import type { AgentMessage, AssistantMessage, ToolResultMessage } from '@agent-core/core';
import { messageProblem } from './check-cassette-entry.js';

/**
 * Follows a stored history message by message and names the first message a
 * model would refuse, so a damaged session is replayed up to it: a message
 * that is not well formed, a result that does not answer the next open call,
 * a new message while calls wait for results, a call id used twice. Calls
 * still open at the end are fine (a paused or interrupted run). Linear.
 */
export class HistoryChecker {
  #open: string[] = [];
  readonly #seen = new Set<string>();

  /** The problem `message` makes as the next message, or undefined; the checker then expects what follows it. */
  add(message: AgentMessage): string | undefined {
    if (typeof message !== 'object' || message === null) return 'a message that is not an object';
    const role = (message as { role?: unknown }).role;
    if (role !== 'user' && role !== 'assistant' && role !== 'toolResult')
      // An app's own kind (a compaction record, say): never sent as it is.
      return typeof role === 'string' ? undefined : 'a message without a role';
    const shape = messageProblem(message, 'message');
    if (shape !== undefined) return shape;
    if (role === 'toolResult') {
      const id = (message as ToolResultMessage).toolCallId;
      if (this.#open[0] !== id)
        return `the result for '${id}' does not answer the next open tool call (${this.#open[0] === undefined ? 'there is none' : `'${this.#open[0]}'`})`;
      this.#open.shift();
      return undefined;
    }
    if (this.#open.length > 0)
      return `a ${role} message comes while tool calls [${this.#open.join(', ')}] have no result`;
    if (role === 'assistant') {
      for (const block of (message as AssistantMessage).content) {
        if (block.type !== 'toolCall') continue;
        if (this.#seen.has(block.id)) return `tool call id '${block.id}' is used twice`;
        this.#seen.add(block.id);
        this.#open.push(block.id);
      }
    }
    return undefined;
  }
}
