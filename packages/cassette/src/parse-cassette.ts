import type { ModelInfo } from '@agent-core/core';
import {
  type Cassette,
  type CassetteEntry,
  type CassetteEvent,
  type CassetteMessage,
  type CassetteRequest,
  cassetteFormatVersion,
} from './cassette-data.js';
import { CassetteError } from './cassette-error.js';
import { cassetteModeVariable } from './cassette-mode.js';
import { cassetteFormatName } from './cassette-writer.js';
import { madeCanonical } from './canonical-cassettes.js';
import { CanonicalCursor } from './canonical-cursor.js';
import { messageProblem, replyProblem, requestHeaderProblem } from './check-cassette-entry.js';
import { requestFields } from './request-header.js';
import { type MessagesView, viewRequest } from './request-messages.js';

/**
 * Reads a cassette file's text. Throws `CassetteError` naming the file and,
 * for a bad entry, the entry and the field: text that is not JSON
 * (`cassette_unreadable`), a newer format version
 * (`cassette_version_unsupported`), or an entry whose request or reply does
 * not parse (`cassette_invalid`). The messages of the entries are made
 * canonical as a recording's are, so a file edited by hand compares alike.
 */
export function parseCassette(text: string, options: { file?: string } = {}): Cassette {
  const file = options.file;
  const name = file === undefined ? 'The cassette' : `Cassette ${file}`;
  const again = `Record it again (${cassetteModeVariable}=record) or restore it from version control.`;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new CassetteError(
      'cassette_unreadable',
      `${name} is not JSON (${(error as Error).message}). ${again}`,
      {
        file,
        cause: error,
      },
    );
  }
  const invalid = (detail: string, entry?: number) =>
    new CassetteError(
      'cassette_invalid',
      `${name}${entry === undefined ? '' : `, entry ${entry},`} cannot be read: ${detail}. ${again}`,
      { file, entry },
    );
  if (
    typeof raw !== 'object' ||
    raw === null ||
    Array.isArray(raw) ||
    (raw as { format?: unknown }).format !== cassetteFormatName
  )
    throw invalid(`it is not an agent-core cassette (no "format": "${cassetteFormatName}")`);
  const data = raw as Record<string, unknown>;
  const version = data.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    throw invalid(`"version" must be a whole number from 1, got ${JSON.stringify(version)}`);
  if (version > cassetteFormatVersion)
    throw new CassetteError(
      'cassette_version_unsupported',
      `${name} was written in cassette format version ${version} by a newer @agent-core/cassette; this one reads up to version ${cassetteFormatVersion}. Upgrade @agent-core/cassette to replay it; the file was left as it is.`,
      { file },
    );
  if (data.provider !== undefined && typeof data.provider !== 'string')
    throw invalid('"provider" must be a string');
  const models = data.models;
  if (models !== undefined) {
    if (typeof models !== 'object' || models === null || Array.isArray(models))
      throw invalid('"models" must be an object of model names');
    for (const [model, info] of Object.entries(models))
      if (
        typeof (info as ModelInfo)?.contextWindow !== 'number' ||
        typeof (info as ModelInfo).maxOutputTokens !== 'number'
      )
        throw invalid(`models.${model} needs "contextWindow" and "maxOutputTokens" numbers`);
  }
  if (!Array.isArray(data.entries)) throw invalid('"entries" must be an array');

  // Each entry's fields and its messages as written, expanded: a view of a shared array, grown in
  // place when an entry continues the one whose messages end that array (one conversation, one array).
  const expanded: { fields: Omit<CassetteRequest, 'messages'>; messages: MessagesView }[] = [];
  const cursor = new CanonicalCursor({});
  const entries: CassetteEntry[] = data.entries.map((rawEntry: unknown, index: number) => {
    if (typeof rawEntry !== 'object' || rawEntry === null || Array.isArray(rawEntry))
      throw invalid('an entry is an object with "request" and "reply"', index);
    const entry = rawEntry as Record<string, unknown>;
    const request = entry.request;
    if (typeof request !== 'object' || request === null || Array.isArray(request))
      throw invalid('"request" must be an object', index);
    const fields = request as Record<string, unknown>;
    const problem =
      requestHeaderProblem(fields, 'request') ??
      (Array.isArray(fields.messages)
        ? fields.messages.reduce<string | undefined>(
            (found, message, position) => found ?? messageProblem(message, `request.messages[${position}]`),
            undefined,
          )
        : 'request.messages: expected an array') ??
      replyProblem(entry.reply, 'reply');
    if (problem !== undefined) throw invalid(problem, index);
    const continues = fields.continues;
    let base: (typeof expanded)[number] | undefined;
    if (continues !== undefined) {
      if (
        typeof continues !== 'number' ||
        !Number.isInteger(continues) ||
        continues < 0 ||
        continues >= index
      )
        throw invalid(
          `request.continues must name an earlier entry (0 to ${index - 1}), got ${JSON.stringify(continues)}`,
          index,
        );
      base = expanded[continues];
    }
    const own = fields.messages as CassetteMessage[];
    const before = base?.messages;
    let source: CassetteMessage[];
    if (before === undefined) source = [...own];
    else {
      source =
        before.source.length === before.length
          ? (before.source as CassetteMessage[])
          : before.source.slice(0, before.length);
      source.push(...own);
    }
    const header: Record<string, unknown> = {};
    for (const field of requestFields) {
      // A field the entry states (null included) is its own; one it leaves out is the continued entry's.
      const value = field in fields ? fields[field] : base?.fields[field];
      if (value !== undefined) header[field] = value;
    }
    const messages = { source, length: source.length };
    expanded.push({ fields: header, messages });
    cursor.advance(source, messages.length);
    return { request: viewRequest(header, cursor.view()), reply: entry.reply as CassetteEvent[] };
  });
  return madeCanonical({
    ...(data.provider === undefined ? {} : { provider: data.provider as string }),
    ...(models === undefined ? {} : { models: models as Record<string, ModelInfo> }),
    entries,
  });
}
