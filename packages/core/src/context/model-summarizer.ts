import type { AgentMessage, UserMessage } from '../messages/messages.js';
import { isModelMessage, messageText } from '../messages/messages.js';
import type { Provider } from '../provider/provider.js';
import type { Summarize } from './context-window.js';

/** Options of `modelSummarizer`. */
export interface ModelSummarizerOptions {
  /** The system prompt of the summary request. */
  instructions?: string;
  /** Output cap of the summary request. Default 1,024. */
  maxTokens?: number;
}

const defaultInstructions =
  "You compress the earlier part of a conversation between a user and an AI assistant that uses tools. Write a concise summary that keeps the user's goals, decisions taken, facts learned from tool results, file names, identifiers and open questions. Write only the summary.";

/** A transcript of messages as plain text, so the summary request is one valid user message whatever was dropped. */
function transcript(messages: readonly AgentMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (!isModelMessage(message)) continue;
    if (message.role === 'user') {
      const images =
        typeof message.content === 'string'
          ? 0
          : message.content.filter((block) => block.type === 'image').length;
      lines.push(`User: ${messageText(message)}${images > 0 ? ` [${images} image(s)]` : ''}`);
    } else if (message.role === 'assistant') {
      const text = messageText(message);
      if (text !== '') lines.push(`Assistant: ${text}`);
      for (const block of message.content) {
        if (block.type === 'toolCall')
          lines.push(`Assistant called ${block.name}(${JSON.stringify(block.input)})`);
      }
    } else {
      lines.push(
        `Result of ${message.toolName}${message.isError ? ' (error)' : ''}: ${messageText(message)}`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * A `summarize` hook for `contextWindow` that asks `model` on `provider` for
 * a summary of the dropped messages, sent as a plain-text transcript with no
 * tools offered. A failed call throws, and the compaction falls back to its marker.
 *
 * @example
 * const agent = new Agent({ provider, model, contextWindow: { summarize: modelSummarizer(provider, model) } });
 */
export function modelSummarizer(
  provider: Provider,
  model: string,
  options: ModelSummarizerOptions = {},
): Summarize {
  return async (messages, signal): Promise<string | UserMessage> => {
    const request = {
      model,
      system: options.instructions ?? defaultInstructions,
      messages: [
        { role: 'user' as const, content: `Summarize this conversation:\n\n${transcript(messages)}` },
      ],
      maxTokens: options.maxTokens ?? 1_024,
    };
    for await (const event of provider.stream(request, { signal })) {
      if (event.type === 'error') throw event.error;
      if (event.type === 'done') {
        if (event.message.stopReason === 'aborted') throw new Error('The summary request was aborted.');
        const text = messageText(event.message).trim();
        if (text === '') throw new Error('The model returned an empty summary.');
        return text;
      }
    }
    throw new Error(`Provider '${provider.name}' ended the summary stream without a done event.`);
  };
}
