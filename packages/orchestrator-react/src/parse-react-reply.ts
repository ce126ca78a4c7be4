import { classifyRange, isWhitespace, type ReactKeyword } from './react-line.js';
import { cleanToolName, unfenced } from './reply-text.js';

/**
 * One parsed ReAct reply: a tool call, a final answer, or a malformed step
 * with what was wrong. `thought` is the reasoning before the action or answer.
 */
export type ReactStep =
  | {
      type: 'action';
      thought: string;
      /** The tool name as written, trimmed of quotes, backticks and `()`. */
      tool: string;
      /** The parsed `Action Input`; `undefined` when the reply had none. */
      input: Record<string, unknown> | undefined;
      /** Further `Action:` lines in the same reply; they are not run. */
      extraActions: number;
    }
  | { type: 'final'; thought: string; answer: string }
  | { type: 'malformed'; thought: string; problem: string };

interface Section {
  keyword: ReactKeyword | undefined;
  text: string;
}

/**
 * Parses a model reply in the ReAct text protocol. Tolerates extra
 * whitespace, any case, markdown around keywords and code fences around the
 * JSON; cuts the reply at an `Observation:` the model wrote itself; ignores
 * anything after the final answer's section.
 */
export function parseReactReply(reply: string): ReactStep {
  const sections = splitSections(reply);
  const thoughts: string[] = [];
  let index = 0;
  for (; index < sections.length; index++) {
    const section = sections[index] as Section;
    if (section.keyword !== undefined && section.keyword !== 'thought') break;
    if (section.text !== '') thoughts.push(section.text);
  }
  const thought = thoughts.join('\n');
  const first = sections[index];
  if (first === undefined) {
    return {
      type: 'malformed',
      thought,
      problem:
        reply.trim() === ''
          ? 'your reply was empty.'
          : "your reply had neither an 'Action:' line nor a 'Final Answer:' line.",
    };
  }
  if (first.keyword === 'final answer') {
    if (first.text === '') return { type: 'malformed', thought, problem: "the 'Final Answer:' was empty." };
    return { type: 'final', thought, answer: first.text };
  }
  if (first.keyword === 'action input') {
    return {
      type: 'malformed',
      thought,
      problem: "an 'Action Input:' came without an 'Action:' line before it.",
    };
  }
  const tool = cleanToolName(first.text);
  if (tool === '') return { type: 'malformed', thought, problem: "the 'Action:' line named no tool." };
  let extraActions = 0;
  for (let later = index + 1; later < sections.length; later++) {
    if ((sections[later] as Section).keyword === 'action') extraActions++;
  }
  const next = sections[index + 1];
  if (next?.keyword !== 'action input')
    return { type: 'action', thought, tool, input: undefined, extraActions };
  const input = parseInput(next.text);
  if (typeof input === 'string') return { type: 'malformed', thought, problem: input };
  return { type: 'action', thought, tool, input, extraActions };
}

function splitSections(reply: string): Section[] {
  const sections: Section[] = [];
  let keyword: ReactKeyword | undefined;
  // The current section is `reply[textStart, lineStart - 1)`, read in place: no line is sliced or joined.
  let textStart = 0;
  let lineStart = 0;
  const close = (end: number) => {
    const text = trimmedSlice(reply, textStart, end);
    if (keyword !== undefined || text !== '') sections.push({ keyword, text });
  };
  for (;;) {
    const newline = reply.indexOf('\n', lineStart);
    const lineEnd = newline < 0 ? reply.length : newline;
    const start = classifyRange(reply, lineStart, lineEnd, true);
    if (start.kind === 'keyword') {
      close(Math.max(textStart, lineStart - 1));
      // An observation the model wrote itself is invented: nothing from here on counts.
      if (start.keyword === 'observation') return sections;
      // The final answer ends at the next keyword line; whatever follows it is ignored.
      if (keyword === 'final answer') return sections;
      keyword = start.keyword;
      textStart = start.contentStart;
    }
    if (newline < 0) break;
    lineStart = newline + 1;
  }
  close(reply.length);
  return sections;
}

/** `text.slice(from, to).trim()`, with one slice. */
function trimmedSlice(text: string, from: number, to: number): string {
  let start = from;
  let end = to;
  while (start < end && isWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/** The input as an object, or a sentence saying what is wrong with it. */
function parseInput(text: string): Record<string, unknown> | undefined | string {
  let json = text.trim();
  // Only a reply that opens with a backtick can hold a fence or a code span.
  if (json.charCodeAt(0) === 96 /* ` */) json = unfenced(json);
  if (json === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    // Prose around the object ("{...} to compute it") is forgiven; anything else is reported.
    const open = json.indexOf('{');
    const close = json.lastIndexOf('}');
    try {
      if (open < 0 || close <= open) throw error;
      value = JSON.parse(json.slice(open, close + 1));
    } catch {
      return `the 'Action Input:' is not valid JSON (${error instanceof Error ? error.message : String(error)}).`;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'the \'Action Input:\' must be one JSON object, such as {"name": "value"}.';
  }
  return value as Record<string, unknown>;
}
