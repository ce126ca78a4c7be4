import type { AssistantMessage, ToolSpec } from '@agent-core/core';
import type { CassetteRequest } from './cassette-data.js';
import { type RequestNote, requestNoteField } from './note-requests.js';

/**
 * Reads the `RequestNote`s of a stored history's replies in order: a note
 * holds the system prompt and tools whole only when they changed, so the
 * texts seen so far are kept by digest. A note that names a digest whose
 * text was never seen (cut off with a damaged part of the log) leaves that
 * field unknown; a reply without a note knows its model only.
 */
export class RequestNotes {
  readonly #systems = new Map<string, string | null>();
  readonly #tools = new Map<string, readonly ToolSpec[]>();

  /** The fields besides messages of the request `reply` answered, as far as its note tells. */
  fieldsOf(reply: AssistantMessage): Omit<CassetteRequest, 'messages'> {
    const note = noteOf(reply);
    if (note === undefined) return reply.model === undefined ? {} : { model: reply.model };
    if (note.system !== undefined) this.#systems.set(note.systemDigest, note.system);
    if (note.tools !== undefined) this.#tools.set(note.toolsDigest, note.tools);
    const fields: Omit<CassetteRequest, 'messages'> = { model: note.model, settings: note.settings };
    if (this.#systems.has(note.systemDigest))
      fields.system = this.#systems.get(note.systemDigest) as string | null;
    const tools = this.#tools.get(note.toolsDigest);
    if (tools !== undefined) fields.tools = tools;
    return fields;
  }
}

/** A reply's note, when it has a well-formed one. */
export function noteOf(reply: AssistantMessage): RequestNote | undefined {
  const note = (reply as unknown as Record<string, unknown>)[requestNoteField];
  if (typeof note !== 'object' || note === null) return undefined;
  const fields = note as Record<string, unknown>;
  const wellFormed =
    typeof fields.model === 'string' &&
    typeof fields.systemDigest === 'string' &&
    typeof fields.toolsDigest === 'string' &&
    typeof fields.settings === 'object' &&
    fields.settings !== null &&
    (fields.system === undefined || fields.system === null || typeof fields.system === 'string') &&
    (fields.tools === undefined || Array.isArray(fields.tools));
  return wellFormed ? (note as RequestNote) : undefined;
}
