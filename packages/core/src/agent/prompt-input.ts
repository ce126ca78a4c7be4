import type { AgentMessage, ImageBlock, TextBlock } from '../messages/messages.js';

/** What `prompt()` takes: text, content blocks, or whole messages. */
export type PromptInput = string | (TextBlock | ImageBlock)[] | AgentMessage | AgentMessage[];

/** The messages a prompt input stands for. */
export function toMessages(input: PromptInput): AgentMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (Array.isArray(input)) {
    if (input.length > 0 && 'role' in (input[0] as object)) return input as AgentMessage[];
    return [{ role: 'user', content: input as (TextBlock | ImageBlock)[] }];
  }
  return [input];
}
