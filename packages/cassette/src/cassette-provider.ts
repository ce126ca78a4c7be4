import {
  ConfigError,
  type ModelEvent,
  type ModelInfo,
  type ModelRequest,
  type Provider,
  ProviderError,
  type RedactOptions,
  type StreamOptions,
} from '@agent-core/core';
import type {
  Cassette,
  CassetteEntry,
  CassetteEvent,
  CassetteRequest,
  RequestField,
} from './cassette-data.js';
import { madeCanonical } from './canonical-cassettes.js';
import { CassetteError } from './cassette-error.js';
import { type CassetteFiles, nodeFiles } from './cassette-files.js';
import { CassetteIndex } from './cassette-index.js';
import { CassetteMissError } from './cassette-miss-error.js';
import { type CassetteMode, cassetteModeVariable, resolveCassetteMode } from './cassette-mode.js';
import { CassetteWriter } from './cassette-writer.js';
import { CursorPool } from './cursor-pool.js';
import { environmentSecrets } from './environment-secrets.js';
import { loadCassette } from './load-cassette.js';
import { replayEvents, toCassetteEvent } from './recorded-events.js';
import { requestDifferences } from './request-differences.js';
import { HeaderCanon } from './request-header.js';
import { viewRequest } from './request-messages.js';

/** Options of `cassette()`. */
export interface CassetteOptions {
  /** The cassette's JSON file (a path, or a `file:` URL such as `new URL('./x.json', import.meta.url)`). */
  file?: string | URL;
  /** A cassette in memory instead of a file (from `sessionCassette`, say); record modes add to a copy. */
  cassette?: Cassette;
  /** The real provider: asked in `record` and `record-missing` modes; its `modelInfo` is used in every mode. */
  provider?: Provider;
  /** Default: the `AGENT_CORE_CASSETTE` environment variable, else `replay`. */
  mode?: CassetteMode;
  /** The provider name to answer under. Default: the recorded provider's in replay, the real one's when recording. */
  name?: string;
  /** Fields left out of matching, for every entry: `['system']` replays whatever the system prompt says. */
  ignore?: readonly RequestField[];
  /** Record replies that failed (rate limits, overloads) too, so a replay fails alike. Default false: a failure is not kept, and the retry that follows is. */
  recordErrors?: boolean;
  /** Exact values to remove from recordings, besides secret-shaped text and the environment's credential variables. */
  secrets?: readonly string[];
  /** The file system calls; default `node:fs`. */
  files?: CassetteFiles;
}

/** A provider that records and replays, with what it did. */
export interface CassetteProvider extends Provider {
  readonly mode: CassetteMode;
  /** The cassette file's path, when it has one. */
  readonly file: string | undefined;
  /** Requests that found no recording in replay mode, in order. */
  readonly misses: readonly CassetteMissError[];
  /** The cassette as it stands: what was loaded and what was recorded since. */
  recorded(): Cassette;
  /** Indexes of the loaded entries no request used: what a run no longer asks. */
  unusedEntries(): number[];
}

/**
 * Wraps a provider to record its replies into a cassette, or replays a
 * cassette without it. In `replay` mode (the default, or
 * `AGENT_CORE_CASSETTE=replay`) no request leaves the process: each is
 * matched by its canonical form, and one with no recording fails closed with
 * a `CassetteMissError` saying how it differs from the nearest recording. In
 * `record` mode every request goes to `provider` and the file is written anew
 * after each reply; `record-missing` replays what is recorded and records the
 * rest. Recording passes the provider's request and events through
 * unchanged. Loads the file first: a missing file in replay mode, or a file
 * that cannot be read, throws `CassetteError`.
 *
 * @example
 * const provider = await cassette({ file: 'test/cassettes/weather.json', provider: openai() });
 */
export async function cassette(options: CassetteOptions): Promise<CassetteProvider> {
  if ((options.file === undefined) === (options.cassette === undefined))
    throw new ConfigError(
      'cassette() needs either `file` (a cassette file) or `cassette` (one in memory), not both.',
    );
  const mode = resolveCassetteMode(options.mode);
  if (mode !== 'replay' && options.provider === undefined)
    throw new ConfigError(
      `cassette() in mode '${mode}' sends requests to the real model: pass it as \`provider\` (or replay with ${cassetteModeVariable}=replay).`,
    );
  let files = options.files;
  let path: string | undefined;
  if (options.file !== undefined) {
    const node = files === undefined || typeof options.file !== 'string' ? await nodeFiles() : undefined;
    files ??= node?.files;
    path = typeof options.file === 'string' ? options.file : node?.pathOf(options.file);
  }
  const redact: RedactOptions = { secrets: [...environmentSecrets(), ...(options.secrets ?? [])] };
  const loaded = await loadCassette({ mode, path, files, cassette: options.cassette });
  return new CassettePlayer(options, mode, redact, loaded, path, files);
}

/** The provider `cassette()` makes. */
class CassettePlayer implements CassetteProvider {
  readonly name: string;
  readonly mode: CassetteMode;
  readonly file: string | undefined;
  readonly #options: CassetteOptions;
  readonly #redact: RedactOptions;
  readonly #files: CassetteFiles | undefined;
  /** Looks requests up; none in `record` mode, which looks nothing up. */
  readonly #index: CassetteIndex | undefined;
  /** Writes the file; none for a cassette in memory, nor in replay mode, which writes nothing. */
  readonly #writer: CassetteWriter | undefined;
  readonly #entries: CassetteEntry[];
  readonly #models: Record<string, ModelInfo>;
  readonly #headers: HeaderCanon;
  readonly #cursors: CursorPool;
  readonly #misses: CassetteMissError[] = [];
  #writing: Promise<unknown> = Promise.resolve();

  constructor(
    options: CassetteOptions,
    mode: CassetteMode,
    redact: RedactOptions,
    loaded: Cassette,
    path: string | undefined,
    files: CassetteFiles | undefined,
  ) {
    this.#options = options;
    this.mode = mode;
    this.file = path;
    this.#redact = redact;
    this.#files = files;
    const kept = mode === 'record' ? [] : loaded.entries;
    this.#entries = [...kept];
    this.#index = mode === 'record' ? undefined : new CassetteIndex(kept, options.ignore ?? []);
    this.#writer = path === undefined || mode === 'replay' ? undefined : new CassetteWriter();
    for (const entry of kept) this.#writer?.add(entry);
    this.#models = { ...(mode === 'record' ? {} : loaded.models) };
    this.#headers = new HeaderCanon(redact);
    this.#cursors = new CursorPool(redact);
    this.name =
      options.name ??
      (mode === 'replay' ? (loaded.provider ?? options.provider?.name) : options.provider?.name) ??
      'cassette';
  }

  get misses(): readonly CassetteMissError[] {
    return this.#misses;
  }

  recorded(): Cassette {
    return madeCanonical({ provider: this.name, models: { ...this.#models }, entries: [...this.#entries] });
  }

  unusedEntries(): number[] {
    return this.#index?.unused() ?? [];
  }

  modelInfo(model: string): ModelInfo | undefined {
    const real = this.#options.provider?.modelInfo?.(model);
    return this.mode === 'replay' ? (this.#models[model] ?? real) : (real ?? this.#models[model]);
  }

  async *stream(request: ModelRequest, options: StreamOptions = {}): AsyncGenerator<ModelEvent> {
    const header = this.#headers.of(request);
    const cursor = this.#cursors.for(request.messages);
    cursor.advance(request.messages);
    const index = this.#index;
    if (index !== undefined) {
      const answer = index.take(header, cursor.key());
      if (answer.kind === 'hit') {
        yield* replayEvents(index.entry(answer.entry).reply, options, this.name);
        return;
      }
      if (this.mode === 'replay') {
        const asked: CassetteRequest = { ...header.values, messages: cursor.messages() };
        const nearest = answer.kind === 'used_up' ? answer.entry : index.nearest(asked, cursor.lines());
        const differences =
          answer.kind === 'used_up' || nearest === undefined
            ? []
            : requestDifferences(index.entry(nearest).request, asked);
        const miss = new CassetteMissError({ file: this.file, request: asked, nearest, differences });
        this.#misses.push(miss);
        yield {
          type: 'error',
          error: new ProviderError({
            kind: 'fatal',
            message: miss.message,
            provider: this.name,
            cause: miss,
          }),
        };
        return;
      }
    }
    // Taken before the first await: a call of another conversation may move the cursor meanwhile.
    const recorded = viewRequest(header.values, cursor.view());
    const provider = this.#options.provider as Provider;
    const info = provider.modelInfo?.(request.model);
    if (info !== undefined) this.#models[request.model] = info;
    const reply: CassetteEvent[] = [];
    for await (const event of provider.stream(request, options)) {
      reply.push(toCassetteEvent(event, this.#redact));
      const last = event.type === 'done' || event.type === 'error';
      if (last && this.#keeps(event)) {
        const failure = await this.#add({ request: recorded, reply });
        if (failure !== undefined) {
          yield {
            type: 'error',
            error: new ProviderError({
              kind: 'fatal',
              message: failure.message,
              provider: this.name,
              cause: failure,
            }),
          };
          return;
        }
      }
      yield event;
      if (last) return;
    }
  }

  /** Whether a reply is kept: a whole answer always, a failure only with `recordErrors`, a reply cut by an abort never. */
  #keeps(event: ModelEvent): boolean {
    if (event.type === 'error') return this.#options.recordErrors === true;
    return event.type === 'done' && event.message.stopReason !== 'aborted';
  }

  /** Adds a recorded entry and writes the file; resolves to the error when the write failed. */
  #add(entry: CassetteEntry): Promise<CassetteError | undefined> {
    this.#entries.push(entry);
    this.#index?.add(entry, true);
    const path = this.file;
    const files = this.#files;
    const writer = this.#writer;
    if (path === undefined || files === undefined || writer === undefined) return Promise.resolve(undefined);
    writer.add(entry);
    // One write at a time, each of the whole cassette as it is then: the last one leaves every entry.
    const written = this.#writing.then(() =>
      files.write(path, writer.text({ provider: this.name, models: this.#models })),
    );
    this.#writing = written.catch(() => undefined);
    return written.then(
      () => undefined,
      (error: unknown) =>
        new CassetteError(
          'cassette_write_failed',
          `Cassette ${path} could not be written (${error instanceof Error ? error.message : String(error)}); the reply was not recorded. Check that its folder is writable.`,
          { file: path, cause: error },
        ),
    );
  }
}
