import type { AgentMessage, Message } from '../messages/messages.js';

/**
 * Counts the tokens one message takes in a request. Called once per message
 * (the count is cached by the message object), so it may be slow-ish but must
 * be synchronous and must not change its answer for the same message.
 */
export type TokenCounter = (message: AgentMessage) => number;

// An image costs about (width × height) / 750 tokens with Anthropic and up to about 1,500 with
// OpenAI's high detail; its pixel size is not known here, so every image counts as a large one.
const imageTokens = 1_600;

/** Tokens of a text at about four characters a token: `ceil(chars / 4)`. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The default `TokenCounter`: `ceil(chars / 4)` over a message's text,
 * thinking, tool names and tool inputs as JSON, plus 1,600 tokens an image.
 * App-defined message kinds count by their JSON, as a `convertToLlm` may send them.
 */
export function estimateTokens(message: AgentMessage): number {
  const role = (message as { role: string }).role;
  if (role !== 'user' && role !== 'assistant' && role !== 'toolResult') {
    return estimateTextTokens(JSON.stringify(message));
  }
  const content = (message as Message).content;
  if (typeof content === 'string') return estimateTextTokens(content);
  let characters = 0;
  let images = 0;
  for (const block of content) {
    if (block.type === 'text') characters += block.text.length;
    else if (block.type === 'thinking') characters += block.thinking.length;
    else if (block.type === 'toolCall')
      characters += block.name.length + JSON.stringify(block.input ?? {}).length;
    else images++;
  }
  return Math.ceil(characters / 4) + images * imageTokens;
}
