import { canonicalJson } from '@agent-core/core';
import type { CassetteMessage, CassetteRequest } from './cassette-data.js';
import { requestFields } from './request-header.js';

/** One way a request differs from a recorded one. */
export interface CassetteDifference {
  /** Where, as a path into the request: `system`, `settings.temperature`, `messages[3].content[0].text`, `messages.length`. */
  path: string;
  /** The recorded value there; undefined when the recording has none. */
  before: unknown;
  /** The asked request's value there; undefined when it has none. */
  after: unknown;
  /** The index of the message the difference is in, when it is in one. */
  message?: number;
  /** The message named for people: `messages[3] (toolResult of call_1 'add')`. */
  label?: string;
}

/**
 * How `asked` differs from `recorded`, field by field: the fields the
 * recording knows (model, system prompt, tools, settings), then the first
 * message that differs, down to the fields inside it, then a difference in
 * the number of messages. At most `limit` (default 8) differences.
 */
export function requestDifferences(
  recorded: CassetteRequest,
  asked: CassetteRequest,
  options: { limit?: number } = {},
): CassetteDifference[] {
  const limit = options.limit ?? 8;
  const found: CassetteDifference[] = [];
  for (const field of requestFields) {
    if (recorded[field] === undefined) continue;
    differ(field, recorded[field], asked[field], found, limit);
  }
  const before = recorded.messages;
  const after = asked.messages;
  let index = 0;
  while (index < before.length && index < after.length && same(before[index], after[index])) index++;
  if (index < before.length && index < after.length) {
    const label = labelOf(index, after[index] as CassetteMessage);
    const start = found.length;
    differ(`messages[${index}]`, before[index], after[index], found, limit);
    for (const difference of found.slice(start)) {
      difference.message = index;
      difference.label = label;
    }
  }
  if (before.length !== after.length && found.length < limit) {
    const extra = before.length < after.length ? after[before.length] : before[after.length];
    found.push({
      path: 'messages.length',
      before: before.length,
      after: after.length,
      message: Math.min(before.length, after.length),
      label:
        extra === undefined
          ? undefined
          : labelOf(Math.min(before.length, after.length), extra as CassetteMessage),
    });
  }
  return found;
}

/** The differences as lines for people: each path with its label, then `before:` and `after:`. */
export function describeDifferences(differences: readonly CassetteDifference[]): string {
  return differences
    .map((difference) => {
      const where =
        difference.path === 'messages.length'
          ? `the number of messages (first unmatched: ${difference.label ?? `messages[${difference.message}]`})`
          : difference.label === undefined
            ? difference.path
            : `${difference.path} in ${difference.label}`;
      const [before, after] = shown(difference.before, difference.after);
      return `  ${where}:\n    before: ${before}\n    after:  ${after}`;
    })
    .join('\n');
}

function same(left: unknown, right: unknown): boolean {
  return left === right || canonicalJson(left) === canonicalJson(right);
}

function differ(
  path: string,
  before: unknown,
  after: unknown,
  found: CassetteDifference[],
  limit: number,
): void {
  if (found.length >= limit || same(before, after)) return;
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) differ(`${path}.${key}`, before[key], after[key], found, limit);
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let index = 0; index < Math.max(before.length, after.length); index++)
      differ(`${path}[${index}]`, before[index], after[index], found, limit);
    return;
  }
  found.push({ path, before, after });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function labelOf(index: number, message: CassetteMessage): string {
  if (message.role === 'toolResult')
    return `messages[${index}] (toolResult of ${message.toolCallId} '${message.toolName}')`;
  return `messages[${index}] (${(message as { role?: unknown }).role})`;
}

/** Both values as text, long strings cut to the neighbourhood of their first difference. */
function shown(before: unknown, after: unknown): [string, string] {
  if (typeof before === 'string' && typeof after === 'string') {
    let start = 0;
    while (start < before.length && start < after.length && before[start] === after[start]) start++;
    const from = Math.max(0, start - 40);
    return [excerpt(before, from), excerpt(after, from)];
  }
  return [text(before), text(after)];
}

function excerpt(value: string, from: number): string {
  const cut = value.slice(from, from + 120);
  return `${from > 0 ? '…' : ''}${JSON.stringify(cut)}${from + 120 < value.length ? '…' : ''}`;
}

function text(value: unknown): string {
  if (value === undefined) return '(none)';
  const json = JSON.stringify(value);
  return json.length > 160 ? `${json.slice(0, 160)}…` : json;
}
