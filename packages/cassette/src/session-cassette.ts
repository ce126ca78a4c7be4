import {
  AgentError,
  type AgentMessage,
  type AssistantMessage,
  type SessionCorruptError,
  type SessionLogRecord,
  type SessionStore,
} from '@agent-core/core';
import type { Cassette, CassetteEntry } from './cassette-data.js';
import { madeCanonical } from './canonical-cassettes.js';
import { CanonicalCursor } from './canonical-cursor.js';
import { environmentSecrets } from './environment-secrets.js';
import { HistoryChecker } from './history-checker.js';
import { replyOfMessage } from './reply-of-message.js';
import { RequestNotes } from './request-notes.js';
import { viewRequest } from './request-messages.js';
import { type ConvertToLlm, RequestView } from './request-view.js';

/** Options of `sessionCassette`. */
export interface SessionCassetteOptions {
  /** What the agent's `convertToLlm` did to its history before each call. Default: core's (app-defined kinds left out). */
  convertToLlm?: ConvertToLlm;
  /** Exact values to redact from the requests, besides secret-shaped text and the environment's credential variables. */
  secrets?: readonly string[];
}

/** Where a stored session is damaged, and what that means for its replay. */
export interface SessionDamage {
  /** The file, table or log record at fault, as the store or the check named it. */
  where: string;
  /** What is wrong (the store's own words when it refused the read, which say what to do). */
  message: string;
  /** The first log record that could not be used, when it is one. */
  seq?: number;
  /** What the store threw, when it refused. */
  cause?: unknown;
}

/** A stored session as a cassette. */
export interface SessionCassette {
  /** An entry per assistant message: the request the agent sent before it, the message as the reply. */
  cassette: Cassette;
  /** The history the cassette was made from: all of it, or what is readable before the damage. */
  messages: AgentMessage[];
  /** Set when the session is damaged: the cassette covers the history before it. */
  damage?: SessionDamage;
}

/**
 * Makes a cassette of a stored session, through any `SessionStore` (file,
 * PostgreSQL, yours): every assistant message of its history is a model
 * reply, and the request is what the agent sent before it (the history up to
 * there, as its context window and `convertToLlm` showed it). A stored
 * session keeps no system prompt, tools or settings, so its entries match on
 * model and messages, unless its replies carry the `RequestNote`s of
 * `noteRequests`: then on the system prompt, tools and settings too. An id never stored rejects with `SessionNotFoundError`.
 * A damaged session resolves with `damage` saying where, and a cassette of
 * what is readable before it: the snapshot when the store refuses its log,
 * the records before the first bad one when the store hands them over.
 * Nothing is written to the store.
 */
export async function sessionCassette(
  store: SessionStore,
  id: string,
  options: SessionCassetteOptions = {},
): Promise<SessionCassette> {
  let loaded: Awaited<ReturnType<SessionStore['load']>>;
  try {
    loaded = await store.load(id);
  } catch (error) {
    if (!isCorrupt(error)) throw error;
    return { ...cassetteOf([], options), damage: storeDamage(error) };
  }
  const messages: AgentMessage[] = [];
  const checker = new HistoryChecker();
  for (const [index, message] of loaded.messages.entries()) {
    const problem = checker.add(message);
    if (problem !== undefined)
      return {
        ...cassetteOf(messages, options),
        damage: {
          where: `message ${index} of session '${id}' as stored (its snapshot)`,
          message: `${problem}.`,
        },
      };
    messages.push(message);
  }
  let records: SessionLogRecord[];
  try {
    records = await store.read(id, { fromSeq: loaded.lastSeq + 1 });
  } catch (error) {
    if (!isCorrupt(error)) throw error;
    return { ...cassetteOf(messages, options), damage: storeDamage(error) };
  }
  let expected = loaded.lastSeq + 1;
  for (const record of records) {
    if (record.seq < expected) continue;
    const problem =
      record.seq > expected
        ? `records ${expected} to ${record.seq - 1} are missing`
        : record.event?.type === 'message'
          ? checker.add(record.event.message)
          : knownTypes.has(record.event?.type as string)
            ? undefined
            : `it is not a log event agent-core writes (type ${JSON.stringify(record.event?.type)})`;
    if (problem !== undefined)
      return {
        ...cassetteOf(messages, options),
        damage: {
          where: `record ${record.seq} of the events log of session '${id}'`,
          message: `${problem}.`,
          seq: record.seq,
        },
      };
    if (record.event.type === 'message') messages.push(record.event.message);
    expected = record.seq + 1;
  }
  return cassetteOf(messages, options);
}

const knownTypes = new Set(['run_started', 'message', 'tool_started', 'tool_finished', 'run_ended']);

/** A `SessionCorruptError` from any copy of core (by its code, as `instanceof` fails across copies). */
function isCorrupt(error: unknown): error is SessionCorruptError {
  return (
    AgentError.isInstance(error) &&
    (error.code === 'session_corrupt' || error.code === 'session_schema_unsupported')
  );
}

function storeDamage(error: SessionCorruptError): SessionDamage {
  return {
    where: error.source,
    message: error.message,
    cause: error,
  };
}

function cassetteOf(messages: AgentMessage[], options: SessionCassetteOptions): SessionCassette {
  const view = new RequestView(messages, options.convertToLlm);
  // Redacted as a cassette's live requests are (the environment's credentials too), so they compare alike.
  const cursor = new CanonicalCursor({ secrets: [...environmentSecrets(), ...(options.secrets ?? [])] });
  const notes = new RequestNotes();
  const entries: CassetteEntry[] = [];
  let provider: string | undefined;
  messages.forEach((message, index) => {
    if ((message as { role?: unknown }).role !== 'assistant') return;
    const reply = message as AssistantMessage;
    provider ??= reply.provider;
    const request = view.before(index);
    cursor.advance(request.messages, request.length);
    entries.push({
      request: viewRequest(notes.fieldsOf(reply), cursor.view()),
      reply: replyOfMessage(reply),
    });
  });
  return { cassette: madeCanonical({ ...(provider === undefined ? {} : { provider }), entries }), messages };
}
