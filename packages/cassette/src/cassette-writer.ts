import { canonicalJson } from '@agent-core/core';
import {
  type Cassette,
  type CassetteEntry,
  type CassetteRequest,
  cassetteFormatVersion,
} from './cassette-data.js';
import { CanonicalCursor } from './canonical-cursor.js';
import { recordedFieldLine, requestFields } from './request-header.js';
import { messagesOf } from './request-messages.js';

/** The `format` field of every cassette file. */
export const cassetteFormatName = 'agent-core-cassette';

/**
 * Writes a cassette as text for a pull request: keys sorted, one message,
 * tool or reply event per line, no timestamps. An entry whose messages begin
 * with an earlier entry's messages says `"continues": <that entry>` and lists
 * only the messages after them, restating only the fields that changed, so a
 * conversation of n steps is written in size linear in n and a reviewer reads
 * each step's new messages. Entries are added as they are recorded; each one's
 * text is made once.
 */
export class CassetteWriter {
  readonly #cursor = new CanonicalCursor('canonical');
  readonly #entries: CassetteEntry[] = [];
  readonly #texts: string[] = [];
  /** How many messages each entry has. */
  readonly #counts: number[] = [];
  /** Entries by the key of all their messages; the latest wins. */
  readonly #byMessages = new Map<string, number>();

  /** Adds the next entry. */
  add(entry: CassetteEntry): void {
    const { source, length } = messagesOf(entry.request);
    this.#cursor.advance(source, length);
    const base = this.#continued(entry.request, length);
    const from = base === undefined ? 0 : (this.#counts[base] ?? 0);
    const lines: string[] = [];
    if (base !== undefined) lines.push(`"continues": ${base}`);
    for (const field of requestFields) {
      const line = recordedFieldLine(entry.request, field);
      if (line === undefined) continue;
      const inherited = base === undefined ? undefined : this.#entries[base]?.request;
      if (inherited !== undefined && recordedFieldLine(inherited, field) === line) continue;
      if (field === 'tools')
        lines.push(`"tools": ${block((entry.request.tools ?? []).map(canonicalJson), 10)}`);
      else lines.push(`${JSON.stringify(field)}: ${line}`);
    }
    const messageLines: string[] = [];
    for (let index = from; index < length; index++) messageLines.push(this.#cursor.line(index));
    lines.push(`"messages": ${block(messageLines, 10)}`);
    const reply = block(entry.reply.map(canonicalJson), 8);
    this.#texts.push(
      `    {\n      "request": {\n${lines.map((line) => `        ${line}`).join(',\n')}\n      },\n      "reply": ${reply}\n    }`,
    );
    this.#byMessages.set(this.#cursor.key(), this.#entries.length);
    this.#entries.push(entry);
    this.#counts.push(length);
  }

  /** The whole file: the format, the provider and its models, then every entry added. */
  text(header: Omit<Cassette, 'entries'>): string {
    const parts = [`  "format": "${cassetteFormatName}"`, `  "version": ${cassetteFormatVersion}`];
    if (header.provider !== undefined) parts.push(`  "provider": ${JSON.stringify(header.provider)}`);
    const models = Object.keys(header.models ?? {}).sort();
    if (models.length > 0)
      parts.push(
        `  "models": {\n${models.map((model) => `    ${JSON.stringify(model)}: ${canonicalJson(header.models?.[model])}`).join(',\n')}\n  }`,
      );
    parts.push(`  "entries": ${this.#texts.length === 0 ? '[]' : `[\n${this.#texts.join(',\n')}\n  ]`}`);
    return `{\n${parts.join(',\n')}\n}\n`;
  }

  /**
   * The entry this one continues: the previous entry when its messages begin
   * this one's, else the latest entry with the most messages in common; only
   * one that knows no field this entry does not know (the file could not say
   * "unknown" for an inherited field).
   */
  #continued(request: CassetteRequest, count: number): number | undefined {
    const previous = this.#entries.length - 1;
    const usable = (index: number | undefined): index is number =>
      index !== undefined &&
      requestFields.every(
        (field) => request[field] !== undefined || this.#entries[index]?.request[field] === undefined,
      );
    const previousCount = this.#counts[previous];
    if (
      previousCount !== undefined &&
      previousCount > 0 &&
      previousCount <= count &&
      this.#byMessages.get(this.#cursor.key(previousCount)) === previous &&
      usable(previous)
    )
      return previous;
    for (let shared = count; shared > 0; shared--) {
      const index = this.#byMessages.get(this.#cursor.key(shared));
      if (usable(index)) return index;
    }
    return undefined;
  }
}

/** A cassette as the text of its file (see `CassetteWriter`). */
export function formatCassette(cassette: Cassette): string {
  const writer = new CassetteWriter();
  for (const entry of cassette.entries) writer.add(entry);
  return writer.text(cassette);
}

/** Lines as a JSON array, one item a line, indented by `indent` spaces. */
function block(lines: readonly string[], indent: number): string {
  if (lines.length === 0) return '[]';
  const pad = ' '.repeat(indent);
  return `[\n${lines.map((line) => `${pad}${line}`).join(',\n')}\n${' '.repeat(indent - 2)}]`;
}
