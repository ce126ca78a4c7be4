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
 * request still matches its recording. Usage, stop reason, provider and model
 * of an assistant message are left out: no model is sent them, and a price
 * table's change must not make a recording miss. A message of an unknown role
 * is kept whole. Every object is built with its keys in sorted order, so
 * `JSON.stringify` of it is its canonical JSON (see `lineOf`).
 */
export function canonicalMessage(
  message: CassetteMessage,
  ids: ToolCallIds,
  redact: RedactOptions,
): CassetteMessage {
  switch (message.role) {
    case 'user':
      return { content: canonicalContent(message.content, redact), role: 'user' } satisfies UserMessage;
    case 'assistant':
      return {
        content: message.content.map((block) => {
          if (block.type === 'toolCall')
            return {
              id: ids.normal(block.id),
              input: sortedCopy(redactSecrets(block.input, redact)),
              name: block.name,
              type: 'toolCall',
            };
          if (block.type === 'thinking') {
            const thinking = {} as ThinkingBlock;
            if (block.redacted !== undefined) thinking.redacted = block.redacted;
            if (block.signature !== undefined) thinking.signature = block.signature;
            thinking.thinking = redactSecrets(block.thinking, redact);
            thinking.type = 'thinking';
            return thinking;
          }
          if (block.type === 'text') return { text: redactSecrets(block.text, redact), type: 'text' };
          return sortedCopy(redactSecrets(block, redact));
        }),
        role: 'assistant',
      };
    case 'toolResult':
      return {
        content: canonicalContent(message.content, redact),
        isError: message.isError,
        role: 'toolResult',
        toolCallId: ids.normal(message.toolCallId),
        toolName: message.toolName,
      } satisfies ToolResultMessage;
    default:
      // An app's own kind that its convertToLlm let through: kept whole.
      return sortedCopy(redactSecrets(message, redact));
  }
}

function canonicalContent(
  content: string | readonly (TextBlock | ImageBlock)[],
  redact: RedactOptions,
): string | (TextBlock | ImageBlock)[] {
  if (typeof content === 'string') return redactSecrets(content, redact);
  return content.map((block) =>
    block.type === 'text'
      ? { text: redactSecrets(block.text, redact), type: 'text' }
      : block.type === 'image'
        ? { data: block.data, mimeType: block.mimeType, type: 'image' }
        : sortedCopy(redactSecrets(block, redact)),
  );
}

/** A copy of plain JSON with the keys of every object in sorted order (and undefined members left out). */
export function sortedCopy<Value>(value: Value): Value {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(sortedCopy) as Value;
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member !== undefined && typeof member !== 'function') copy[key] = sortedCopy(member);
  }
  return copy as Value;
}
