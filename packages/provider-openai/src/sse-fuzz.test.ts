import { readFileSync } from 'node:fs';
import type { ModelEvent } from '@agent-core/core';
import { describeSseFuzz, piecesFetch, soak } from '@agent-core/test-support';
import { vi } from 'vitest';
import { openai } from './openai.js';
import { chatChunk, chatDone, responsesEvent } from './test-support/fake-openai-server.js';

// The SSE parsing of both APIs, through the real SDK: a recorded stream cut into arbitrary byte
// pieces (inside a line, a JSON string, a multi-byte character) gives the same events and final
// message as the whole stream; bytes that are cut short, inserted or overwritten end the stream
// with `done` or one clear `error`, never a hang, a throw or an unhandled rejection. The bytes go
// to the SDK through its `fetch` option, each piece as its own read of the body, so the pieces
// reach the parser exactly as cut. `pnpm test:soak` runs many more cases; a failure prints its seed
// and path, which AGENT_CORE_SEED and AGENT_CORE_PATH replay.

if (soak) vi.setConfig({ testTimeout: 60 * 60_000 });

const pieces = piecesFetch();
// One provider per API for every case: its fetch answers with the pieces of the case being run.
const providers = {
  chat: openai({ apiKey: 'sk-test', baseURL: 'http://fuzz.test/v1', fetch: pieces.fetch }),
  responses: openai({
    apiKey: 'sk-test',
    baseURL: 'http://fuzz.test/v1',
    fetch: pieces.fetch,
    api: 'responses',
  }),
};

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

const multiByteText = ['Grüße, ', '世界 ', '🌍🚀', ' — ok'];

/** A stream, its API, and where a cut must end with an error (the model had not finished). */
interface RecordedStream {
  api: 'chat' | 'responses';
  text: string;
  finishedFrom: (text: string) => number;
}

// Chat: a stream cut before the chunk with finish_reason lacks the end of the answer.
const chatFinish = (text: string) => text.search(/data: [^\n]*"finish_reason":"/);
// Responses: a stream cut before its last event lacks response.completed (or ended in failure).
const responsesEnd = (text: string) => text.lastIndexOf('event: ');

const streams: Record<string, RecordedStream> = {
  'chat text': { api: 'chat', text: fixture('chat-text.chunks.txt'), finishedFrom: chatFinish },
  'chat tool call': { api: 'chat', text: fixture('chat-tool-call.chunks.txt'), finishedFrom: chatFinish },
  'chat parallel calls': {
    api: 'chat',
    text: fixture('chat-parallel-tool-calls.chunks.txt'),
    finishedFrom: chatFinish,
  },
  'chat reasoning': {
    api: 'chat',
    text: fixture('chat-reasoning-content.chunks.txt'),
    finishedFrom: chatFinish,
  },
  'chat missing ids': { api: 'chat', text: fixture('chat-missing-id.chunks.txt'), finishedFrom: chatFinish },
  'chat multi-byte text': {
    api: 'chat',
    text: [...multiByteText.map((content) => chatChunk({ content })), chatChunk({}, 'stop'), chatDone].join(
      '',
    ),
    finishedFrom: chatFinish,
  },
  'responses text': {
    api: 'responses',
    text: fixture('responses-text.events.txt'),
    finishedFrom: responsesEnd,
  },
  'responses tool call': {
    api: 'responses',
    text: fixture('responses-tool-call.events.txt'),
    finishedFrom: responsesEnd,
  },
  'responses reasoning': {
    api: 'responses',
    text: fixture('responses-reasoning.events.txt'),
    finishedFrom: responsesEnd,
  },
  'responses failed': {
    api: 'responses',
    text: fixture('responses-failed.events.txt'),
    finishedFrom: responsesEnd,
  },
  'responses multi-byte text': {
    api: 'responses',
    text: [
      ...multiByteText.map((delta) =>
        responsesEvent({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, delta }),
      ),
      responsesEvent({
        type: 'response.completed',
        response: { id: 'resp_1', object: 'response', status: 'completed', output: [], usage: null },
      }),
    ].join(''),
    finishedFrom: responsesEnd,
  },
};

/** Events as plain JSON, with the ids made up for calls that came without one (they differ per stream) made equal. */
function comparable(events: readonly ModelEvent[]): unknown {
  return JSON.parse(JSON.stringify(events).replace(/call_[0-9a-f]{8}_/g, 'call_made_up_'));
}

describeSseFuzz(
  Object.fromEntries(
    Object.entries(streams).map(([name, { api, text, finishedFrom }]) => [
      name,
      { text, provider: providers[api], model: 'gpt-4o-mini', finishedFrom: finishedFrom(text) },
    ]),
  ),
  { feed: pieces.feed, runs: 15, comparable },
);
