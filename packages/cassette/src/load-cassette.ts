import type { Cassette } from './cassette-data.js';
import { CassetteError } from './cassette-error.js';
import type { CassetteFiles } from './cassette-files.js';
import type { CassetteMode } from './cassette-mode.js';
import { cassetteModeVariable } from './cassette-mode.js';
import { isMadeCanonical, madeCanonical } from './canonical-cassettes.js';
import { CanonicalCursor } from './canonical-cursor.js';
import { parseCassette } from './parse-cassette.js';
import { viewRequest } from './request-messages.js';

/** Where `loadCassette` reads from. */
export interface LoadCassetteSource {
  mode: CassetteMode;
  path?: string;
  files?: CassetteFiles;
  cassette?: Cassette;
}

/**
 * The cassette a provider starts from: the one given in memory (its
 * messages made canonical, in case it was written by hand), nothing in
 * `record` mode (the file is recorded anew), else the file's. A missing file
 * is an empty cassette to `record-missing` and a `CassetteError` to `replay`.
 */
export async function loadCassette(source: LoadCassetteSource): Promise<Cassette> {
  if (source.cassette !== undefined) return canonicalEntries(source.cassette);
  if (source.mode === 'record') return { entries: [] };
  const path = source.path as string;
  let text: string | undefined;
  try {
    text = await (source.files as CassetteFiles).read(path);
  } catch (error) {
    throw new CassetteError(
      'cassette_unreadable',
      `Cassette ${path} could not be read (${error instanceof Error ? error.message : String(error)}).`,
      { file: path, cause: error },
    );
  }
  if (text === undefined) {
    if (source.mode === 'record-missing') return { entries: [] };
    throw new CassetteError(
      'cassette_not_found',
      `No cassette at ${path}. Record it: run once with ${cassetteModeVariable}=record (the real provider answers and the file is written), then commit the file.`,
      { file: path },
    );
  }
  return parseCassette(text, { file: path });
}

function canonicalEntries(cassette: Cassette): Cassette {
  if (isMadeCanonical(cassette)) return cassette;
  const cursor = new CanonicalCursor({});
  return madeCanonical({
    ...cassette,
    entries: cassette.entries.map((entry) => {
      const { messages, ...fields } = entry.request;
      cursor.advance(messages);
      return { request: viewRequest(fields, cursor.view()), reply: entry.reply };
    }),
  });
}
