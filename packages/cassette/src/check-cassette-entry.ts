import { isProviderErrorKind } from '@agent-core/core';

// Checks of a cassette file's parts as `JSON.parse` gave them. Each returns the
// first problem as `path: what is wrong`, or undefined when the part is sound,
// so an edited entry is refused with the field named rather than replayed wrong.

const stopReasons = new Set([
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'refusal',
  'aborted',
  'error',
]);

type Problem = string | undefined;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function expect(path: string, ok: boolean, what: string): Problem {
  return ok ? undefined : `${path}: expected ${what}`;
}

function first(...checks: (() => Problem)[]): Problem {
  for (const check of checks) {
    const problem = check();
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function eachOf(path: string, value: unknown, check: (item: unknown, path: string) => Problem): Problem {
  if (!Array.isArray(value)) return `${path}: expected an array`;
  for (let index = 0; index < value.length; index++) {
    const problem = check(value[index], `${path}[${index}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function optional(value: unknown, check: () => Problem): Problem {
  return value === undefined ? undefined : check();
}

function contentBlockProblem(block: unknown, path: string): Problem {
  if (!isRecord(block)) return `${path}: expected a content block object`;
  if (block.type === 'text') return expect(`${path}.text`, typeof block.text === 'string', 'a string');
  if (block.type === 'image')
    return first(
      () => expect(`${path}.data`, typeof block.data === 'string', 'base64 text'),
      () => expect(`${path}.mimeType`, typeof block.mimeType === 'string', 'a string'),
    );
  return `${path}.type: expected 'text' or 'image', got ${JSON.stringify(block.type)}`;
}

function userContentProblem(content: unknown, path: string): Problem {
  return typeof content === 'string' ? undefined : eachOf(path, content, contentBlockProblem);
}

function toolCallProblem(block: Record<string, unknown>, path: string): Problem {
  return first(
    () => expect(`${path}.type`, block.type === 'toolCall', "'toolCall'"),
    () => expect(`${path}.id`, typeof block.id === 'string', 'a string'),
    () => expect(`${path}.name`, typeof block.name === 'string', 'a string'),
    () => expect(`${path}.input`, isRecord(block.input), 'an object'),
  );
}

function assistantBlockProblem(block: unknown, path: string): Problem {
  if (!isRecord(block)) return `${path}: expected a content block object`;
  if (block.type === 'text') return expect(`${path}.text`, typeof block.text === 'string', 'a string');
  if (block.type === 'thinking')
    return first(
      () => expect(`${path}.thinking`, typeof block.thinking === 'string', 'a string'),
      () =>
        optional(block.signature, () =>
          expect(`${path}.signature`, typeof block.signature === 'string', 'a string'),
        ),
      () =>
        optional(block.redacted, () =>
          expect(`${path}.redacted`, typeof block.redacted === 'boolean', 'true or false'),
        ),
    );
  if (block.type === 'toolCall') return toolCallProblem(block, path);
  return `${path}.type: expected 'text', 'thinking' or 'toolCall', got ${JSON.stringify(block.type)}`;
}

/** A message of a recorded request: user, assistant (role and content) or toolResult. */
export function messageProblem(message: unknown, path: string): Problem {
  if (!isRecord(message)) return `${path}: expected a message object`;
  switch (message.role) {
    case 'user':
      return userContentProblem(message.content, `${path}.content`);
    case 'assistant':
      return eachOf(`${path}.content`, message.content, assistantBlockProblem);
    case 'toolResult':
      return first(
        () => expect(`${path}.toolCallId`, typeof message.toolCallId === 'string', 'a string'),
        () => expect(`${path}.toolName`, typeof message.toolName === 'string', 'a string'),
        () => expect(`${path}.isError`, typeof message.isError === 'boolean', 'true or false'),
        () => userContentProblem(message.content, `${path}.content`),
      );
    default:
      return `${path}.role: expected 'user', 'assistant' or 'toolResult', got ${JSON.stringify(message.role)}`;
  }
}

function usageProblem(usage: unknown, path: string): Problem {
  if (!isRecord(usage)) return `${path}: expected an object`;
  for (const field of ['input', 'output', 'cacheRead', 'cacheWrite'])
    if (typeof usage[field] !== 'number') return `${path}.${field}: expected a number`;
  return optional(usage.cost, () => expect(`${path}.cost`, typeof usage.cost === 'number', 'a number'));
}

/** The fields of a recorded request besides its messages (each may be absent: not known). */
export function requestHeaderProblem(request: Record<string, unknown>, path: string): Problem {
  return first(
    () =>
      optional(request.model, () => expect(`${path}.model`, typeof request.model === 'string', 'a string')),
    () =>
      optional(request.system, () =>
        expect(
          `${path}.system`,
          request.system === null || typeof request.system === 'string',
          'a string or null',
        ),
      ),
    () =>
      optional(request.tools, () =>
        eachOf(`${path}.tools`, request.tools, (tool, toolPath) =>
          !isRecord(tool)
            ? `${toolPath}: expected a tool object`
            : first(
                () => expect(`${toolPath}.name`, typeof tool.name === 'string', 'a string'),
                () => expect(`${toolPath}.description`, typeof tool.description === 'string', 'a string'),
                () => expect(`${toolPath}.parameters`, isRecord(tool.parameters), 'a JSON Schema object'),
              ),
        ),
      ),
    () =>
      optional(request.settings, () => expect(`${path}.settings`, isRecord(request.settings), 'an object')),
  );
}

/** One event of a recorded reply. */
export function eventProblem(event: unknown, path: string): Problem {
  if (!isRecord(event)) return `${path}: expected an event object`;
  switch (event.type) {
    case 'text_delta':
    case 'thinking_delta':
      return expect(`${path}.delta`, typeof event.delta === 'string', 'a string');
    case 'toolcall_start':
      return first(
        () => expect(`${path}.id`, typeof event.id === 'string', 'a string'),
        () => expect(`${path}.name`, typeof event.name === 'string', 'a string'),
      );
    case 'toolcall_delta':
      return first(
        () => expect(`${path}.id`, typeof event.id === 'string', 'a string'),
        () => expect(`${path}.delta`, typeof event.delta === 'string', 'a string'),
      );
    case 'toolcall_end':
      return isRecord(event.toolCall)
        ? toolCallProblem(event.toolCall, `${path}.toolCall`)
        : `${path}.toolCall: expected a tool call object`;
    case 'usage':
      return usageProblem(event.usage, `${path}.usage`);
    case 'done': {
      const message = event.message;
      if (!isRecord(message)) return `${path}.message: expected an assistant message`;
      return first(
        () => expect(`${path}.message.role`, message.role === 'assistant', "'assistant'"),
        () => eachOf(`${path}.message.content`, message.content, assistantBlockProblem),
        () =>
          expect(
            `${path}.message.stopReason`,
            stopReasons.has(message.stopReason as string),
            `one of ${[...stopReasons].join(', ')}`,
          ),
        () => optional(message.usage, () => usageProblem(message.usage, `${path}.message.usage`)),
      );
    }
    case 'error': {
      const error = event.error;
      if (!isRecord(error)) return `${path}.error: expected an object`;
      return first(
        () =>
          expect(
            `${path}.error.kind`,
            typeof error.kind === 'string' && isProviderErrorKind(error.kind),
            'a ProviderError kind',
          ),
        () => expect(`${path}.error.message`, typeof error.message === 'string', 'a string'),
        () => expect(`${path}.error.retryable`, typeof error.retryable === 'boolean', 'true or false'),
      );
    }
    default:
      return `${path}.type: expected a model event type, got ${JSON.stringify(event.type)}`;
  }
}

/** A whole reply: sound events, the last one (and only it) `done` or `error`. */
export function replyProblem(reply: unknown, path: string): Problem {
  if (!Array.isArray(reply) || reply.length === 0) return `${path}: expected a non-empty array of events`;
  const problem = eachOf(path, reply, eventProblem);
  if (problem !== undefined) return problem;
  const end = reply.findIndex((event) => event.type === 'done' || event.type === 'error');
  if (end !== reply.length - 1)
    return end === -1
      ? `${path}: the last event must be 'done' or 'error'`
      : `${path}[${end}]: '${reply[end].type}' must be the last event`;
  return undefined;
}
