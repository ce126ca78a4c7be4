import {
  type AssistantMessage,
  ConfigError,
  type ModelEvent,
  type ModelInfo,
  type ModelRequest,
  type Provider,
  ProviderError,
  type StreamOptions,
  type ToolCallBlock,
  type Usage,
} from '@agent-core/core';
import type { MockScript, MockTurn } from './mock-turn.js';

/** Options of `mock()`. */
export interface MockOptions {
  /** Replies in order, one per model call; or one function answering every call. */
  turns: readonly MockScript[] | ((request: ModelRequest, call: number) => MockTurn);
  /** Characters per streamed delta. Default 8; `0` sends no deltas, only the final message. */
  chunkSize?: number;
  /** Wait before each reply's first event, in milliseconds. */
  latencyMs?: number;
  /** Wait between deltas, in milliseconds. */
  chunkDelayMs?: number;
  /** Provider name in messages. Default `mock`. */
  name?: string;
  /** Keep a copy of every request in `requests` (default true). */
  record?: boolean;
  /** Answer for `modelInfo()`. */
  modelInfo?: ModelInfo;
}

/** The mock provider, with what it was asked. */
export interface MockProvider extends Provider {
  /** Every request received, with the messages as they were at call time. */
  readonly requests: ModelRequest[];
  /** Model calls made so far. */
  readonly calls: number;
}

/**
 * A scripted provider for tests and offline demos: replies come from a list
 * (or a function), stream as deltas in chunks, and can fail with any
 * `ProviderError` kind before or during the stream. It records every request.
 * Running out of scripted replies is an error event of kind `fatal`.
 *
 * @example
 * const provider = mock({ turns: [{ toolCalls: [{ name: 'add', input: { a: 1, b: 2 } }] }, { text: '3' }] });
 */
export function mock(options: MockOptions): MockProvider {
  const turns = options.turns;
  if (turns === undefined || (typeof turns !== 'function' && !Array.isArray(turns))) {
    throw new ConfigError('mock() needs `turns`: a list of scripted replies or a function returning one.');
  }
  const name = options.name ?? 'mock';
  const chunkSize = options.chunkSize ?? 8;
  const requests: ModelRequest[] = [];
  let calls = 0;
  let ids = 0;
  // Random per provider: a session continued in another process (a new provider) never repeats an id of its history.
  const idPrefix = `mock_${randomHex()}_`;

  function scriptFor(request: ModelRequest, call: number): MockTurn | undefined {
    if (typeof turns === 'function') return turns(request, call);
    const script = (turns as readonly MockScript[])[call];
    return typeof script === 'function' ? script(request, call) : script;
  }

  async function* stream(
    request: ModelRequest,
    streamOptions: StreamOptions = {},
  ): AsyncGenerator<ModelEvent> {
    const call = calls++;
    if (options.record !== false) requests.push({ ...request, messages: request.messages.slice() });
    const signal = streamOptions.signal;
    const turn = scriptFor(request, call);
    if (turn === undefined) {
      yield {
        type: 'error',
        error: new ProviderError({
          kind: 'fatal',
          provider: name,
          message: `The mock provider has no reply scripted for call ${call + 1} (it has ${Array.isArray(turns) ? turns.length : 0}). Add a turn to the script.`,
        }),
      };
      return;
    }
    const partial: AssistantMessage = {
      role: 'assistant',
      content: [],
      stopReason: 'aborted',
      provider: name,
      model: request.model,
    };
    const aborted = () => ({ type: 'done', message: partial }) as const;

    const latency = turn.latencyMs ?? options.latencyMs ?? 0;
    if (turn.hang === true) {
      await wait(Number.POSITIVE_INFINITY, signal);
      yield aborted();
      return;
    }
    if (latency > 0 && !(await wait(latency, signal))) {
      yield aborted();
      return;
    }
    if (signal?.aborted) {
      yield aborted();
      return;
    }
    const error = turn.error;
    const failAfter = error === undefined ? Number.POSITIVE_INFINITY : (error.afterChunks ?? 0);
    let chunks = 0;
    const fail = (): ModelEvent => ({
      type: 'error',
      error: new ProviderError({
        kind: error!.kind,
        provider: name,
        message: error!.message ?? `Scripted ${error!.kind} error from the mock provider.`,
        ...(error!.status === undefined ? {} : { status: error!.status }),
        ...(error!.retryAfterMs === undefined ? {} : { retryAfterMs: error!.retryAfterMs }),
      }),
    });
    if (failAfter === 0) {
      yield fail();
      return;
    }

    let produced = 0;
    const pieces = function* (text: string): Generator<string> {
      if (chunkSize <= 0) return;
      for (let index = 0; index < text.length; index += chunkSize) yield text.slice(index, index + chunkSize);
    };

    if (turn.thinking !== undefined) {
      const block: { type: 'thinking'; thinking: string; signature?: string } = {
        type: 'thinking',
        thinking: '',
      };
      partial.content.push(block);
      for (const piece of pieces(turn.thinking)) {
        if (!(await pause(options.chunkDelayMs, signal))) return yield aborted();
        block.thinking += piece;
        yield { type: 'thinking_delta', delta: piece };
      }
      block.thinking = turn.thinking;
      if (turn.thinkingSignature !== undefined) block.signature = turn.thinkingSignature;
      produced += turn.thinking.length;
    }
    if (turn.text !== undefined && turn.text !== '') {
      const block = { type: 'text' as const, text: '' };
      partial.content.push(block);
      for (const piece of pieces(turn.text)) {
        if (chunks >= failAfter) return yield fail();
        if (chunks === turn.stallAfterChunks) {
          await wait(Number.POSITIVE_INFINITY, signal);
          return yield aborted();
        }
        if (!(await pause(options.chunkDelayMs, signal))) return yield aborted();
        block.text += piece;
        chunks++;
        yield { type: 'text_delta', delta: piece };
      }
      if (chunks >= failAfter) return yield fail();
      block.text = turn.text;
      produced += turn.text.length;
    }
    const toolCalls: ToolCallBlock[] = [];
    for (const scripted of turn.toolCalls ?? []) {
      const toolCall: ToolCallBlock = {
        type: 'toolCall',
        id: scripted.id ?? `${idPrefix}${++ids}`,
        name: scripted.name,
        input: scripted.input ?? {},
      };
      const json = JSON.stringify(toolCall.input);
      produced += json.length;
      if (!(await pause(options.chunkDelayMs, signal))) return yield aborted();
      yield { type: 'toolcall_start', id: toolCall.id, name: toolCall.name };
      for (const piece of pieces(json)) yield { type: 'toolcall_delta', id: toolCall.id, delta: piece };
      yield { type: 'toolcall_end', toolCall };
      toolCalls.push(toolCall);
    }
    if (error !== undefined) return yield fail();
    if (signal?.aborted) return yield aborted();

    const usage: Usage = {
      input: turn.usage?.input ?? 10,
      output: turn.usage?.output ?? Math.ceil(produced / 4),
      cacheRead: turn.usage?.cacheRead ?? 0,
      cacheWrite: turn.usage?.cacheWrite ?? 0,
    };
    if (turn.usage?.cost !== undefined) usage.cost = turn.usage.cost;
    yield { type: 'usage', usage };
    const content: AssistantMessage['content'] = [];
    if (turn.thinking !== undefined)
      content.push({
        type: 'thinking',
        thinking: turn.thinking,
        ...(turn.thinkingSignature === undefined ? {} : { signature: turn.thinkingSignature }),
      });
    if (turn.text !== undefined && turn.text !== '') content.push({ type: 'text', text: turn.text });
    content.push(...toolCalls);
    yield {
      type: 'done',
      message: {
        role: 'assistant',
        content,
        stopReason: turn.stopReason ?? (toolCalls.length > 0 ? 'tool_use' : 'end_turn'),
        usage,
        provider: name,
        model: request.model,
      },
    };
  }

  return {
    name,
    stream,
    requests,
    get calls() {
      return calls;
    },
    modelInfo: () => options.modelInfo,
  };
}

function pause(ms: number | undefined, signal: AbortSignal | undefined): Promise<boolean> | boolean {
  if (ms === undefined || ms <= 0) return !signal?.aborted;
  return wait(ms, signal);
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      if (timer !== undefined) clearTimeout(timer);
      resolve(false);
    };
    const timer =
      ms === Number.POSITIVE_INFINITY
        ? undefined
        : setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve(true);
          }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Eight random hex digits, from `crypto.getRandomValues` (in every runtime core supports). */
function randomHex(): string {
  const [word] = globalThis.crypto.getRandomValues(new Uint32Array(1));
  return (word as number).toString(16).padStart(8, '0');
}
