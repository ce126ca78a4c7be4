import type { AgentMessage, AssistantMessage, ToolResultMessage } from '@agent-core/core';
import { finishReasons } from './semconv.js';

/** One message part in the conventions' JSON form of `gen_ai.input.messages` / `gen_ai.output.messages`. */
type Part =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown }
  | { type: 'blob'; modality: 'image'; mime_type: string };

/** A message in the conventions' JSON form. */
export interface SemconvMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  parts: Part[];
  finish_reason?: string;
}

/** The conventions' form of the history sent to the model (app-defined message kinds are left out, as the model never sees them). */
export function inputMessages(messages: readonly AgentMessage[]): SemconvMessage[] {
  const converted: SemconvMessage[] = [];
  for (const message of messages) {
    const role = (message as { role?: unknown }).role;
    if (role === 'user') {
      const content = (message as { content: string | { type: string; text?: string; mimeType?: string }[] })
        .content;
      converted.push({
        role: 'user',
        parts: typeof content === 'string' ? [text(content)] : blocks(content),
      });
    } else if (role === 'assistant') {
      converted.push(outputMessage(message as AssistantMessage));
    } else if (role === 'toolResult') {
      const result = message as ToolResultMessage;
      converted.push({
        role: 'tool',
        parts: [{ type: 'tool_call_response', id: result.toolCallId, response: result.content }],
      });
    }
  }
  return converted;
}

/** The conventions' form of one model response. */
export function outputMessage(message: AssistantMessage): SemconvMessage {
  const parts: Part[] = [];
  for (const block of message.content) {
    if (block.type === 'text') parts.push(text(block.text));
    else if (block.type === 'thinking') parts.push({ type: 'reasoning', content: block.thinking });
    else if (block.type === 'toolCall')
      parts.push({ type: 'tool_call', id: block.id, name: block.name, arguments: block.input });
  }
  return { role: 'assistant', parts, finish_reason: finishReasons[message.stopReason] ?? message.stopReason };
}

function text(content: string): Part {
  return { type: 'text', content };
}

function blocks(content: readonly { type: string; text?: string; mimeType?: string }[]): Part[] {
  return content.map((block) =>
    block.type === 'text'
      ? text(block.text ?? '')
      : { type: 'blob', modality: 'image', mime_type: block.mimeType ?? 'application/octet-stream' },
  );
}
