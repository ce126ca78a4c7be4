/**
 * What the real APIs refuse in a request's history, checked on the body the
 * provider actually sent: a tool call without its result, a result without
 * its call, roles out of order, empty content. Each function returns the
 * problems as sentences; empty means the API would take the history.
 */

interface AnthropicBlock {
  type: string;
  id?: string;
  tool_use_id?: string;
  text?: string;
}

interface AnthropicMessage {
  role: string;
  content: string | AnthropicBlock[];
}

/** Anthropic Messages: alternating roles from a user turn, each tool_use answered first in the next user turn. */
export function anthropicRequestProblems(body: { messages?: AnthropicMessage[] }): string[] {
  const problems: string[] = [];
  const messages = body.messages ?? [];
  if (messages[0]?.role !== 'user') problems.push('the first message is not from the user');
  messages.forEach((message, index) => {
    const previous = messages[index - 1];
    if (previous !== undefined && previous.role === message.role)
      problems.push(`messages ${index - 1} and ${index} are both ${message.role}`);
    const blocks = typeof message.content === 'string' ? [] : message.content;
    if (typeof message.content === 'string' ? message.content === '' : blocks.length === 0)
      problems.push(`message ${index} is empty`);
    for (const block of blocks) {
      if (block.type === 'text' && block.text === '')
        problems.push(`message ${index} has an empty text block`);
    }
    if (message.role !== 'assistant') return;
    const calls = blocks.filter((block) => block.type === 'tool_use').map((block) => block.id);
    if (calls.length === 0) return;
    const next = messages[index + 1];
    const nextBlocks = next === undefined || typeof next.content === 'string' ? [] : next.content;
    const results: (string | undefined)[] = [];
    for (const block of nextBlocks) {
      if (block.type !== 'tool_result') break;
      results.push(block.tool_use_id);
    }
    const unanswered = calls.filter((id) => !results.includes(id));
    if (unanswered.length > 0 && next !== undefined)
      problems.push(
        `message ${index}: tool_use ${unanswered.join(', ')} not answered first in the next message`,
      );
    if (new Set(results).size !== results.length) problems.push(`message ${index + 1}: a tool_result twice`);
  });
  messages.forEach((message, index) => {
    if (typeof message.content === 'string') return;
    const previous = messages[index - 1];
    const called =
      previous === undefined || typeof previous.content === 'string'
        ? []
        : previous.content.filter((block) => block.type === 'tool_use').map((block) => block.id);
    for (const block of message.content) {
      if (block.type === 'tool_result' && !called.includes(block.tool_use_id))
        problems.push(
          `message ${index}: tool_result ${block.tool_use_id} answers no tool_use of the message before`,
        );
    }
  });
  return problems;
}

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}

/** Chat Completions: every assistant tool call answered by a `tool` message right after it, and no stray results. */
export function chatRequestProblems(body: { messages?: ChatMessage[] }): string[] {
  const problems: string[] = [];
  const messages = body.messages ?? [];
  let open: string[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      if (!open.includes(message.tool_call_id ?? ''))
        problems.push(
          `message ${index}: a tool result for ${message.tool_call_id} that no open call asked for`,
        );
      open = open.filter((id) => id !== message.tool_call_id);
      return;
    }
    if (open.length > 0) problems.push(`message ${index}: calls ${open.join(', ')} have no result before it`);
    open = message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [];
    if (
      message.role === 'assistant' &&
      open.length === 0 &&
      (message.content === null || message.content === undefined)
    )
      problems.push(`message ${index}: an assistant message with neither content nor tool calls`);
  });
  if (open.length > 0) problems.push(`the history ends with calls ${open.join(', ')} unanswered`);
  return problems;
}

interface ResponsesItem {
  type?: string;
  role?: string;
  call_id?: string;
}

/** Responses: every item typed, every function_call with exactly one later output, no output without its call. */
export function responsesRequestProblems(body: { input?: ResponsesItem[] | string }): string[] {
  const problems: string[] = [];
  if (typeof body.input === 'string') return problems;
  const items = body.input ?? [];
  const calls = new Map<string, number>();
  const outputs = new Map<string, number>();
  items.forEach((item, index) => {
    if (item.type === undefined) problems.push(`input ${index} has no type`);
    if (item.type === 'function_call') {
      if (calls.has(item.call_id ?? '')) problems.push(`input ${index}: call ${item.call_id} twice`);
      calls.set(item.call_id ?? '', index);
    }
    if (item.type === 'function_call_output') {
      const call = calls.get(item.call_id ?? '');
      if (call === undefined)
        problems.push(`input ${index}: output for ${item.call_id} before or without its call`);
      if (outputs.has(item.call_id ?? ''))
        problems.push(`input ${index}: a second output for ${item.call_id}`);
      outputs.set(item.call_id ?? '', index);
    }
  });
  for (const id of calls.keys()) {
    if (!outputs.has(id)) problems.push(`call ${id} has no output`);
  }
  return problems;
}
