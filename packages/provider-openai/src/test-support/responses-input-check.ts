// The strictest rules real Responses API servers apply to `input`, so a request that one of them
// would refuse fails the tests too. llama.cpp's server converts each item by its `type` and refuses
// an item it cannot classify ("Cannot determine type of 'item'"), as well as an assistant message
// whose content is a string (it becomes `input_text`, which an assistant message may not hold);
// OpenAI refuses `input_text` inside an assistant message.

type Item = Record<string, unknown>;

const inputParts = new Set(['input_text', 'input_image', 'input_file']);
const assistantParts = new Set(['output_text', 'refusal']);

function isObject(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkMessage(item: Item): string | undefined {
  const role = item.role;
  const content = item.content;
  if (role === 'assistant') {
    if (!Array.isArray(content)) return "'type' must be 'output_text'";
    for (const part of content) {
      const type = isObject(part) ? part.type : undefined;
      if (typeof type !== 'string' || !assistantParts.has(type)) {
        return `Invalid value: '${String(type)}'. Supported values are: 'output_text' and 'refusal'.`;
      }
      if (type === 'output_text' && typeof part.text !== 'string') return "'Output text' requires 'text'";
    }
    return undefined;
  }
  if (role !== 'user' && role !== 'system' && role !== 'developer') return "Cannot determine type of 'item'";
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return "Cannot determine type of 'item'";
  for (const part of content) {
    const type = isObject(part) ? part.type : undefined;
    if (typeof type !== 'string' || !inputParts.has(type)) {
      return "'type' must be one of 'input_text', 'input_image', or 'input_file'";
    }
  }
  return undefined;
}

function checkItem(item: unknown): string | undefined {
  if (!isObject(item) || typeof item.type !== 'string') return "Cannot determine type of 'item'";
  switch (item.type) {
    case 'message':
      return checkMessage(item);
    case 'function_call':
      return typeof item.call_id === 'string' &&
        typeof item.name === 'string' &&
        typeof item.arguments === 'string'
        ? undefined
        : "Cannot determine type of 'item'";
    case 'function_call_output': {
      const output = item.output;
      if (typeof item.call_id !== 'string') return "Cannot determine type of 'item'";
      if (typeof output === 'string') return undefined;
      if (!Array.isArray(output)) return "Cannot determine type of 'item'";
      return output.every((part) => isObject(part) && typeof part.type === 'string')
        ? undefined
        : "Cannot determine type of 'item'";
    }
    case 'reasoning':
      return Array.isArray(item.summary) ? undefined : "Cannot determine type of 'item'";
    default:
      return "Cannot determine type of 'item'";
  }
}

/**
 * Why a strict Responses server would refuse this request body's `input`, or
 * undefined when every item is acceptable. A string `input` is fine.
 */
export function responsesInputProblem(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const input = body.input;
  if (input === undefined || typeof input === 'string') return undefined;
  if (!Array.isArray(input)) return "'input' must be a string or array of objects";
  for (const item of input) {
    const problem = checkItem(item);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
