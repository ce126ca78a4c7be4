import type { CassetteEntry, CassetteMessage, CassetteRequest, RequestField } from './cassette-data.js';
import { CanonicalCursor, lineOf } from './canonical-cursor.js';
import { messagesOf } from './request-messages.js';
import { emptyHash, hashKey, hashText } from './request-hash.js';
import { type CanonicalHeader, recordedFieldLine, requestFields } from './request-header.js';

/** Entries that know the same fields, by the key of their request over those fields. */
interface FieldGroup {
  fields: RequestField[];
  keys: Map<string, number[]>;
}

/** What `CassetteIndex.take` found for a request. */
export type IndexAnswer =
  | { kind: 'hit'; entry: number }
  /** Recorded, and every recording of it was served already. */
  | { kind: 'used_up'; entry: number }
  | { kind: 'miss' };

/**
 * The entries of a cassette by the key of their canonical request, for
 * replay: a request is looked up by its key, never compared whole. An entry
 * that does not know a field (a stored session's has no system prompt) is
 * keyed without it, and `ignore` leaves fields out of every key. Each entry
 * is served once; the same request asked again takes the next entry that
 * recorded it, so a retried call gets what its retry got.
 */
export class CassetteIndex {
  readonly #entries: CassetteEntry[] = [];
  readonly #used: boolean[] = [];
  readonly #ignore: ReadonlySet<RequestField>;
  readonly #groups = new Map<string, FieldGroup>();
  readonly #cursor: CanonicalCursor;

  constructor(entries: readonly CassetteEntry[], ignore: readonly RequestField[]) {
    this.#ignore = new Set(ignore);
    // Entries are canonical (and redacted) already: made so by the recorder, the parser or sessionCassette.
    this.#cursor = new CanonicalCursor('canonical');
    for (const entry of entries) this.add(entry);
  }

  /** Adds an entry (`used`: one just recorded, which a replay would have served); returns its index. */
  add(entry: CassetteEntry, used = false): number {
    const index = this.#entries.length;
    this.#entries.push(entry);
    this.#used.push(used);
    const fields = requestFields.filter(
      (field) => entry.request[field] !== undefined && !this.#ignore.has(field),
    );
    const signature = fields.join(',');
    let group = this.#groups.get(signature);
    if (group === undefined) {
      group = { fields, keys: new Map() };
      this.#groups.set(signature, group);
    }
    const view = messagesOf(entry.request);
    this.#cursor.advance(view.source, view.length);
    const lines = fields.map((field) => recordedFieldLine(entry.request, field) as string);
    const key = keyOf(signature, lines, this.#cursor.key());
    const list = group.keys.get(key);
    if (list === undefined) group.keys.set(key, [index]);
    else list.push(index);
    return index;
  }

  /** The first unused entry recorded for a request with this header and messages key, marked used. */
  take(header: CanonicalHeader, messagesKey: string): IndexAnswer {
    let hit: number | undefined;
    let usedUp: number | undefined;
    for (const [signature, group] of this.#groups) {
      const key = keyOf(
        signature,
        group.fields.map((field) => header.lines[field]),
        messagesKey,
      );
      for (const index of group.keys.get(key) ?? []) {
        if (this.#used[index] === true) usedUp = index;
        else if (hit === undefined || index < hit) hit = index;
        if (this.#used[index] !== true) break;
      }
    }
    if (hit !== undefined) {
      this.#used[hit] = true;
      return { kind: 'hit', entry: hit };
    }
    return usedUp === undefined ? { kind: 'miss' } : { kind: 'used_up', entry: usedUp };
  }

  /** The entry at `index`. */
  entry(index: number): CassetteEntry {
    return this.#entries[index] as CassetteEntry;
  }

  /** Indexes of the entries never served. */
  unused(): number[] {
    const unused: number[] = [];
    this.#used.forEach((used, index) => {
      if (!used) unused.push(index);
    });
    return unused;
  }

  /**
   * The entry most like `asked`: the most leading messages in common, then
   * the most known fields equal, then a message count nearest to its own;
   * among equals an unused one, then the earliest. Undefined when empty.
   * For error messages only: it compares messages whole.
   */
  nearest(asked: CassetteRequest, askedLines: readonly string[]): number | undefined {
    let best: number | undefined;
    let bestScore: number[] = [];
    this.#entries.forEach((entry, index) => {
      const { source, length } = messagesOf(entry.request);
      let common = 0;
      while (
        common < length &&
        common < askedLines.length &&
        lineOf(source[common] as CassetteMessage) === askedLines[common]
      )
        common++;
      let fields = 0;
      for (const field of requestFields) {
        const line = recordedFieldLine(entry.request, field);
        if (line !== undefined && line === recordedFieldLine(asked, field)) fields++;
      }
      const score = [
        common,
        fields,
        -Math.abs(length - askedLines.length),
        this.#used[index] === true ? 0 : 1,
      ];
      if (best === undefined || greater(score, bestScore)) {
        best = index;
        bestScore = score;
      }
    });
    return best;
  }
}

function keyOf(signature: string, lines: readonly string[], messagesKey: string): string {
  let state = emptyHash;
  for (const line of lines) state = hashText(state, line);
  return `${signature}|${hashKey(state)}|${messagesKey}`;
}

function greater(score: readonly number[], than: readonly number[]): boolean {
  for (let index = 0; index < score.length; index++) {
    const left = score[index] as number;
    const right = than[index] as number;
    if (left !== right) return left > right;
  }
  return false;
}
