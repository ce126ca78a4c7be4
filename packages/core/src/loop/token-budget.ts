import { RunStoppedError } from '../errors/run-error.js';
import type { Message } from '../messages/messages.js';
import type { ModelRequest, Provider } from '../provider/provider.js';
import type { RunContext } from './run-context.js';

/** Characters counted so far of one message list, so each model call counts only what was added since the last. */
interface CountedMessages {
  messages: readonly Message[];
  counted: number;
  chars: number;
}

const counts = new WeakMap<RunContext, CountedMessages>();

/**
 * Checks `limits.maxTokens` before a model call: when the request's input
 * alone (the provider's `countTokens`, else ceil(characters / 4)) is more
 * than what is left of the budget, the call is not made and this returns the
 * `max_tokens` error that ends the run. Only runs with `maxTokens` call it.
 */
export async function checkTokenBudget(
  context: RunContext,
  provider: Provider,
  request: ModelRequest,
  maxTokens: number,
): Promise<RunStoppedError | undefined> {
  const usage = context.state.usage;
  const left = maxTokens - (usage.input + usage.output);
  let needed: number;
  if (provider.countTokens !== undefined) {
    try {
      needed = await provider.countTokens(request);
    } catch {
      needed = Math.ceil(requestChars(context, request) / 4);
    }
  } else needed = Math.ceil(requestChars(context, request) / 4);
  if (needed <= left) return undefined;
  return new RunStoppedError(
    'max_tokens',
    `The next model call was not made: its input alone is about ${needed} tokens, and only ${Math.max(0, left)} of limits.maxTokens (${maxTokens}) are left. The history is kept: raise the limit or start a shorter conversation.`,
  );
}

/** Characters of the request that reach the model: system prompt, tool definitions and message contents. */
function requestChars(context: RunContext, request: ModelRequest): number {
  let chars = request.system?.length ?? 0;
  if (request.tools !== undefined) chars += JSON.stringify(request.tools).length;
  const messages = request.messages;
  let counted = counts.get(context);
  // The live history grows by appending: count only the new messages. Any other list is counted whole.
  if (counted === undefined || counted.messages !== messages || counted.counted > messages.length) {
    counted = { messages, counted: 0, chars: 0 };
    counts.set(context, counted);
  }
  for (let index = counted.counted; index < messages.length; index++) {
    counted.chars += messageChars(messages[index] as Message);
  }
  counted.counted = messages.length;
  return chars + counted.chars;
}

function messageChars(message: Message): number {
  if (message.role === 'user') {
    if (typeof message.content === 'string') return message.content.length;
    return message.content.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0);
  }
  if (message.role === 'toolResult') {
    if (typeof message.content === 'string') return message.content.length;
    return message.content.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0);
  }
  let chars = 0;
  for (const block of message.content) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'thinking') chars += block.thinking.length;
    else if (block.type === 'toolCall') chars += block.name.length + JSON.stringify(block.input).length;
  }
  return chars;
}
