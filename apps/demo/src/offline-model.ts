import type { AssistantMessage, Message, ModelRequest, ToolResultMessage } from '@agent-core/core';
import { type MockProvider, type MockTurn, mock } from '@agent-core/provider-mock';

const expressionPattern = /\(?-?\d+(?:\.\d+)?\)?(?:\s*[-+*/%^]\s*\(?-?\d+(?:\.\d+)?\)?)+/g;

/**
 * The demo's offline model: a scripted provider that reads the prompt, calls
 * the calculator for each arithmetic expression in it and the clock when asked
 * for the time, then answers from the tool results. No network, no key. On
 * a terminal it streams with a short pause between chunks, as a real model would.
 */
export function offlineModel(): MockProvider {
  // The pause between chunks shows a person at a terminal what streaming looks like; piped output needs none.
  const chunkDelayMs = process.stdout.isTTY === true ? 8 : 0;
  return mock({ name: 'mock', turns: respond, chunkSize: 4, chunkDelayMs });
}

function respond(request: ModelRequest): MockTurn {
  const last = request.messages.at(-1);
  if (last?.role === 'toolResult') return answerFromResults(request.messages);
  const prompt = last === undefined ? '' : textOf(last);
  const protocol = respondInProtocol(request, prompt);
  if (protocol !== undefined) return protocol;
  if (/\bhow many messages\b/i.test(prompt)) return { text: recall(request.messages) };
  if (/\bsummar/i.test(request.system ?? '') && (request.tools ?? []).length === 0)
    return {
      text: `Summary: the user and the assistant exchanged ${request.messages.length} messages of arithmetic and tool calls.`,
    };
  if (/\bmarkdown\b/i.test(prompt)) return { text: markdownSample };
  if (/\bsystem prompt\b/i.test(prompt)) return { text: `My system prompt:\n${request.system ?? '(none)'}` };
  const thinking = /\bthink\b/i.test(prompt)
    ? { thinking: 'The user wants me to think first. Arithmetic goes to the calculator.' }
    : {};
  const tools = new Set((request.tools ?? []).map((tool) => tool.name));
  const toolCalls: NonNullable<MockTurn['toolCalls']> = [];
  // "call <tool> {json}" runs any tool by name, so every tool pack can be tried offline.
  for (const match of prompt.matchAll(
    /\b(?:call|use|run)\s+([A-Za-z0-9_-]+)\s*(\{.*?\})?(?=\s*(?:,|;|\band\b|$))/g,
  )) {
    const name = match[1] as string;
    if (!tools.has(name)) continue;
    toolCalls.push({ name, input: parseInput(match[2]) });
  }
  if (toolCalls.length > 0) return { ...thinking, toolCalls };
  if (tools.has('calculator')) {
    for (const match of prompt.matchAll(expressionPattern)) {
      toolCalls.push({ name: 'calculator', input: { expression: match[0].trim() } });
    }
  }
  if (tools.has('clock') && /\b(time|date|today|clock)\b/i.test(prompt))
    toolCalls.push({ name: 'clock', input: {} });
  if (toolCalls.length > 0) return { ...thinking, toolCalls };
  return {
    ...thinking,
    text:
      'I am the offline mock model, so I only know a few tricks: ask me to compute something like ' +
      '"What is 15 * 3 and 10 + 5?", what time it is, "how many messages" I was sent, to "call <tool> {json input}", ' +
      'or to show some markdown. ' +
      'Set ANTHROPIC_API_KEY or OPENAI_API_KEY for a real model.',
  };
}

/** What the offline model answers when asked for markdown: a heading, a list, code and a table, to show the rendering. */
const markdownSample = [
  '# Markdown from the offline model',
  '',
  'Some **bold** text, some *emphasis* and `inline code`.',
  '',
  '- first item',
  '- second item',
  '',
  '```ts',
  'const answer = 6 * 7; // 42',
  '```',
  '',
  '| tool | risk |',
  '| --- | --- |',
  '| calculator | read |',
].join('\n');

/**
 * What the model was sent: the number of messages and the user's previous
 * prompt, so a resumed session can be seen to carry its history.
 */
function recall(messages: readonly Message[]): string {
  const earlier = messages.slice(0, -1).filter((message) => message.role === 'user');
  const previous = earlier.at(-1);
  if (previous === undefined)
    return `I see ${messages.length} message: this is where our conversation starts.`;
  const said = textOf(previous);
  // A long prompt is quoted by its start: the answer streams, and a page of it says nothing more.
  return `I see ${messages.length} messages; before this you said: "${said.length > 200 ? `${said.slice(0, 197)}...` : said}".`;
}

function answerFromResults(messages: readonly Message[]): MockTurn {
  const results: ToolResultMessage[] = [];
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.role === 'toolResult')
    results.unshift(messages[index--] as ToolResultMessage);
  const call = messages[index] as AssistantMessage | undefined;
  const inputs = new Map<string, Record<string, unknown>>();
  for (const block of call?.content ?? []) if (block.type === 'toolCall') inputs.set(block.id, block.input);
  const parts = results.map((result) => {
    const text = typeof result.content === 'string' ? result.content : '';
    if (result.isError) return `${result.toolName} failed (${text})`;
    const expression = inputs.get(result.toolCallId)?.expression;
    if (typeof expression === 'string') return `${expression} = ${text}`;
    return result.toolName === 'clock' ? `it is ${text}` : `${result.toolName} said: ${text}`;
  });
  return { text: sentence(joinAnd(parts)) };
}

/** The text protocols of the other orchestrators: ReAct, and plan-and-execute's plan and summary. */
function respondInProtocol(request: ModelRequest, prompt: string): MockTurn | undefined {
  if (request.system?.includes('Action Input:')) return reactStep(request.messages);
  if (/write a (new )?plan/i.test(prompt) && prompt.includes('Reply with JSON only')) {
    const question = [...request.messages]
      .reverse()
      .find((message) => message.role === 'user' && textOf(message) !== prompt);
    const expressions = [...textOf(question ?? last(request.messages)).matchAll(expressionPattern)].map(
      (match) => match[0].trim(),
    );
    const steps = (expressions.length > 0 ? expressions : ['the answer']).map((expression) => ({
      title: `Compute ${expression}`,
      instruction: 'Use the calculator for this step.',
    }));
    return { text: JSON.stringify({ steps }) };
  }
  if (prompt.startsWith('All steps are done')) {
    // Only the calculator calls of this plan's steps: the history before its plan may hold any tool's calls.
    const planned = request.messages.findLastIndex(
      (message) => message.role === 'user' && /write a (new )?plan/i.test(textOf(message)),
    );
    const parts: string[] = [];
    const expressions = new Map<string, string>();
    for (const message of request.messages.slice(planned + 1)) {
      if (message.role === 'assistant') {
        for (const block of message.content)
          if (block.type === 'toolCall' && typeof block.input.expression === 'string')
            expressions.set(block.id, block.input.expression);
      } else if (message.role === 'toolResult' && !message.isError) {
        const expression = expressions.get(message.toolCallId);
        if (expression !== undefined) parts.push(`${expression} = ${textOf(message)}`);
      }
    }
    return { text: parts.length > 0 ? `${joinAnd(parts)}.` : 'I had nothing to compute.' };
  }
  return undefined;
}

/** One ReAct step: the next calculator action, or the final answer from the observations. */
function reactStep(messages: readonly Message[]): MockTurn {
  // The question is the last user message that is not an observation.
  let start = messages.length - 1;
  while (
    start > 0 &&
    (messages[start]?.role !== 'user' || /^Observation:/.test(textOf(messages[start] as Message)))
  )
    start--;
  const expressions = [...textOf(messages[start] as Message).matchAll(expressionPattern)].map((match) =>
    match[0].trim(),
  );
  const observations = messages
    .slice(start + 1)
    .filter((message) => message.role === 'user')
    .map((message) =>
      textOf(message)
        .replace(/^Observation:\s*/, '')
        .trim(),
    );
  const next = expressions[observations.length];
  if (next !== undefined) {
    return {
      text: `Thought: I should compute ${next}.\nAction: calculator\nAction Input: ${JSON.stringify({ expression: next })}`,
    };
  }
  const parts = expressions.map((expression, index) => `${expression} = ${observations[index]}`);
  return {
    text: `Thought: I now know the final answer.\nFinal Answer: ${parts.length > 0 ? `${joinAnd(parts)}.` : 'I had nothing to compute.'}`,
  };
}

function last(messages: readonly Message[]): Message {
  return messages[messages.length - 1] as Message;
}

function parseInput(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Capitalised, with one closing period. */
function sentence(text: string): string {
  const capitalised = text.replace(/^./, (first) => first.toUpperCase());
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

function joinAnd(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.map((block) => ('text' in block ? block.text : '')).join('');
}
