import {
  type ImageBlock,
  type RedactOptions,
  redactSecrets,
  type TextBlock,
  type ThinkingBlock,
  type ToolResultMessage,
  type UserMessage,
} from '@agent-core/core';
import type { CassetteMessage } from './cassette-data.js';
import type { ToolCallIds } from './tool-call-ids.js';

/**
 * A message as a cassette compares and keeps it: the fields a model is sent,
 * tool-call ids by their order (`ids`), and every string passed through core's
 * `redactSecrets`, so a key pasted into a prompt never reaches a file and the
 * request still matches its recording (`redact: false` for messages that
 * were made canonical before). Usage, stop reason, provider and model
 * of an assistant message are left out: no model is sent them, and a price
 * table's change must not make a recording miss. A message of an unknown role
 * is kept whole.
 */
export function canonicalMessage(
  message: CassetteMessage,
  ids: ToolCallIds,
  redact: RedactOptions | false,
): CassetteMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: canonicalContent(message.content, redact) } satisfies UserMessage;
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content.map((block) => {
          if (block.type === 'toolCall')
            return {
              type: 'toolCall',
              id: ids.normal(block.id),
              name: block.name,
              input: clean(block.input, redact),
            };
          if (block.type === 'thinking') {
            const thinking: ThinkingBlock = {
              type: 'thinking',
              thinking: clean(block.thinking, redact),
            };
            if (block.signature !== undefined) thinking.signature = block.signature;
            if (block.redacted !== undefined) thinking.redacted = block.redacted;
            return thinking;
          }
          if (block.type === 'text') return { type: 'text', text: clean(block.text, redact) };
          return clean(block, redact);
        }),
      };
    case 'toolResult':
      return {
        role: 'toolResult',
        toolCallId: ids.normal(message.toolCallId),
        toolName: message.toolName,
        content: canonicalContent(message.content, redact),
        isError: message.isError,
      } satisfies ToolResultMessage;
    default:
      // An app's own kind that its convertToLlm let through: kept whole.
      return clean(message, redact) as CassetteMessage;
  }
}

function canonicalContent(
  content: string | readonly (TextBlock | ImageBlock)[],
  redact: RedactOptions | false,
): string | (TextBlock | ImageBlock)[] {
  if (typeof content === 'string') return clean(content, redact);
  return content.map((block) =>
    block.type === 'text'
      ? { type: 'text', text: clean(block.text, redact) }
      : block.type === 'image'
        ? { type: 'image', data: block.data, mimeType: block.mimeType }
        : clean(block, redact),
  );
}

/** `value` with secrets redacted, or as it is when `redact` is false (a message already made canonical). */
function clean<Value>(value: Value, redact: RedactOptions | false): Value {
  return redact === false ? value : redactSecrets(value, redact);
}
