import type { AgentMessage, ToolCallBlock } from '../messages/messages.js';

/** Tool calls at the end of a stored history that never got a result; only the tail is looked at. */
export function danglingCalls(messages: readonly AgentMessage[]): Map<string, ToolCallBlock> {
  const pending = new Map<string, ToolCallBlock>();
  const answered = new Set<string>();
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as AgentMessage & { role: string };
    if (message.role === 'toolResult') answered.add((message as { toolCallId: string }).toolCallId);
    else if (message.role === 'assistant') {
      for (const block of (message as { content: { type: string }[] }).content) {
        if (block.type === 'toolCall' && !answered.has((block as ToolCallBlock).id)) {
          pending.set((block as ToolCallBlock).id, block as ToolCallBlock);
        }
      }
      break;
    } else break;
  }
  return pending;
}
