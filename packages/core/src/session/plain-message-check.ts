/*
 * A quick check of the messages the loop makes, for `checkSessionState`: true
 * only for a message the session schema (session-schema.ts) accepts, in the
 * plain shapes core and its providers build. Anything else (an odd shape, an
 * unusual value, a class instance) answers false, and the schema decides, so
 * a false is never an error: it only means "ask zod". The schema checks each
 * message in microseconds; this check takes a small fraction of that.
 */

type Plain = Record<string, unknown>;

function isPlainObject(value: unknown): value is Plain {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

function isFiniteNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

const stopReasons = new Set([
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'refusal',
  'aborted',
  'error',
]);

function isUsage(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  return (
    isFiniteNumber(value.input) &&
    isFiniteNumber(value.output) &&
    isFiniteNumber(value.cacheRead) &&
    isFiniteNumber(value.cacheWrite) &&
    (value.cost === undefined || isFiniteNumber(value.cost))
  );
}

/** A user's or a tool result's content: a string, or text and image blocks. */
function isUserContent(content: unknown): boolean {
  if (typeof content === 'string') return true;
  if (!Array.isArray(content)) return false;
  for (const block of content) {
    if (!isPlainObject(block)) return false;
    if (block.type === 'text') {
      if (typeof block.text !== 'string') return false;
    } else if (block.type === 'image') {
      if (typeof block.data !== 'string' || typeof block.mimeType !== 'string') return false;
    } else return false;
  }
  return true;
}

function isAssistantBlock(block: unknown): boolean {
  if (!isPlainObject(block)) return false;
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string';
    case 'thinking':
      return (
        typeof block.thinking === 'string' &&
        optionalString(block.signature) &&
        (block.redacted === undefined || typeof block.redacted === 'boolean')
      );
    case 'toolCall': {
      const input = block.input;
      return (
        typeof block.id === 'string' &&
        typeof block.name === 'string' &&
        isPlainObject(input) &&
        // The schema's record of string keys refuses an object with symbol keys.
        Object.getOwnPropertySymbols(input).length === 0
      );
    }
    default:
      return false;
  }
}

/**
 * True when `message` is certainly valid for the session schema; false when
 * only the schema can tell (it may still be valid). App-defined kinds (any
 * other string role) are kept as they are by the schema, so they pass.
 */
export function isPlainValidMessage(message: unknown): boolean {
  if (!isPlainObject(message)) return false;
  const role = message.role;
  if (typeof role !== 'string') return false;
  if (role === 'user') return isUserContent(message.content);
  if (role === 'toolResult')
    return (
      typeof message.toolCallId === 'string' &&
      typeof message.toolName === 'string' &&
      typeof message.isError === 'boolean' &&
      isUserContent(message.content)
    );
  if (role === 'assistant') {
    const content = message.content;
    if (!Array.isArray(content) || typeof message.stopReason !== 'string') return false;
    if (!stopReasons.has(message.stopReason)) return false;
    if (!optionalString(message.provider) || !optionalString(message.model)) return false;
    if (!optionalString(message.errorMessage)) return false;
    if (message.usage !== undefined && !isUsage(message.usage)) return false;
    for (const block of content) if (!isAssistantBlock(block)) return false;
    return true;
  }
  // Any other role is an app-defined kind, which the schema keeps as it is.
  return true;
}
