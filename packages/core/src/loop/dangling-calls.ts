import type { AgentMessage, ToolCallBlock } from '../messages/messages.js';
import { PendingCalls } from './pending-calls.js';

/** Tool calls at the end of a stored history that never got a result; only the tail is looked at. */
export function danglingCalls(messages: readonly AgentMessage[]): PendingCalls {
  const pending = new PendingCalls();
  // Made only when the history ends in results: a history that ends in a prompt needs none.
  let answered: Set<string> | undefined;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as AgentMessage & { role: string };
    if (message.role === 'toolResult')
      (answered ??= new Set()).add((message as { toolCallId: string }).toolCallId);
    else if (message.role === 'assistant') {
      for (const block of (message as { content: { type: string }[] }).content) {
        if (block.type === 'toolCall' && answered?.has((block as ToolCallBlock).id) !== true) {
          pending.add(block as ToolCallBlock);
        }
      }
      break;
    } else break;
  }
  return pending;
}
