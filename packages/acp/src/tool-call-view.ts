import { isAbsolute, resolve } from 'node:path';
import type { Diff, ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import type { AnyTool, ToolCallBlock, ToolResultMessage, ToolRisk } from '@agent-core/core';

/** What an editor is shown of one tool call: its title, kind and the files it touches. */
export interface ToolCallView {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
}

// Name patterns first: a name says more than a risk (grep reads, yet is a search).
const kindsByName: readonly [RegExp, ToolKind][] = [
  [/(^|_)(delete|remove|rm|unlink)(_|$)/i, 'delete'],
  [/(^|_)(move|rename|mv)(_|$)/i, 'move'],
  [/(^|_)(grep|glob|search|find|list|ls)(_|$)/i, 'search'],
  [/(^|_)(write|edit|patch|create|replace)(_|$)/i, 'edit'],
  [/(^|_)(read|cat|view|open)(_|$)/i, 'read'],
  [/(^|_)(shell|bash|exec|run|terminal|command)(_|$)/i, 'execute'],
  [/(^|_)(fetch|http|web|url|download|browse)(_|$)/i, 'fetch'],
  [/(^|_)(think|plan|reason)(_|$)/i, 'think'],
];

// A read risk says nothing about files (a calculator reads nothing): ACP's `read` kind is for tools named so.
const kindsByRisk: Readonly<Record<ToolRisk, ToolKind>> = {
  read: 'other',
  write: 'edit',
  execute: 'execute',
  network: 'fetch',
};

/**
 * The ACP kind of a tool call: from the tool's name when it says what the
 * tool does (`read_file`, `grep`, `shell`), else from its risk (`write` →
 * edit, `execute` → execute, `network` → fetch), else `other`.
 */
export function toolKindOf(name: string, risk: ToolRisk | undefined): ToolKind {
  for (const [pattern, kind] of kindsByName) if (pattern.test(name)) return kind;
  return risk === undefined ? 'other' : kindsByRisk[risk];
}

const pathKeys = ['path', 'file', 'file_path', 'filePath', 'filename'] as const;

/** The file path a call's input names, if any (`path`, `file_path`, ...). */
export function inputPath(input: Record<string, unknown>): string | undefined {
  for (const key of pathKeys) {
    const value = input[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function shortText(value: string, length = 60): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}

/**
 * The view of a call, the same live and in a replay: it depends only on the
 * call and the tool's risk. Paths are made absolute against the session's cwd,
 * as ACP asks.
 */
export function viewOfToolCall(call: ToolCallBlock, tool: AnyTool | undefined, cwd: string): ToolCallView {
  const kind = toolKindOf(call.name, tool?.risk);
  const path = inputPath(call.input);
  const locations: ToolCallLocation[] = [];
  if (path !== undefined) {
    const line = call.input.offset;
    locations.push({
      path: isAbsolute(path) ? path : resolve(cwd, path),
      ...(typeof line === 'number' ? { line } : {}),
    });
  }
  let detail: string | undefined = path;
  if (detail === undefined) {
    for (const key of ['command', 'pattern', 'query', 'url', 'expression']) {
      const value = call.input[key];
      if (typeof value === 'string' && value !== '') {
        detail = value;
        break;
      }
    }
  }
  const title = detail === undefined ? call.name : `${call.name}: ${shortText(detail)}`;
  return { title, kind, locations };
}

/** The text of a tool result, for the editor. */
export function resultText(content: ToolResultMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');
}

/**
 * What a finished call shows: the result as text (images as images) and, for
 * a successful edit, a diff: `diff` when the server read the file before the
 * call ran (the whole file before and after), else one built from the input:
 * `edit_file`-style calls (`old_string` / `new_string`) give the replaced
 * text, `write_file`-style calls (`content`) the new file.
 */
export function contentOfToolResult(
  call: ToolCallBlock,
  result: ToolResultMessage['content'],
  isError: boolean,
  cwd: string,
  diff?: Diff,
): ToolCallContent[] {
  const content: ToolCallContent[] = [];
  const path = inputPath(call.input);
  if (!isError && diff !== undefined) content.push({ type: 'diff', ...diff });
  else if (!isError && path !== undefined) {
    const absolute = isAbsolute(path) ? path : resolve(cwd, path);
    const { old_string: oldText, new_string: newText, content: written } = call.input;
    if (typeof oldText === 'string' && typeof newText === 'string')
      content.push({ type: 'diff', path: absolute, oldText, newText });
    else if (typeof written === 'string') content.push({ type: 'diff', path: absolute, newText: written });
  }
  if (typeof result === 'string') {
    if (result !== '') content.push({ type: 'content', content: { type: 'text', text: result } });
    return content;
  }
  for (const block of result) {
    if (block.type === 'text') content.push({ type: 'content', content: { type: 'text', text: block.text } });
    else
      content.push({
        type: 'content',
        content: { type: 'image', data: block.data, mimeType: block.mimeType },
      });
  }
  return content;
}
