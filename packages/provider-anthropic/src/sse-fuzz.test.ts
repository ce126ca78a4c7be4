import {
  describeSseFuzz,
  messageEnd,
  messageStart,
  piecesFetch,
  soak,
  textBlock,
} from '@agent-core/test-support';
import { vi } from 'vitest';
import { anthropic } from './anthropic.js';
import { fixture } from './test-support/anthropic-server.js';

// The SSE parsing, through the real SDK: a recorded stream cut into arbitrary byte pieces (inside
// a line, an event name, a JSON string, a multi-byte character) gives the same events and final
// message as the whole stream; bytes that are cut short, inserted or overwritten end the stream
// with `done` or one clear `error`, never a hang, a throw or an unhandled rejection. The bytes go
// to the SDK through its `fetch` option, each piece as its own read of the body, so the pieces
// reach the parser exactly as cut. `pnpm test:soak` runs many more cases; a failure prints its
// seed and path, which AGENT_CORE_SEED and AGENT_CORE_PATH replay.

if (soak) vi.setConfig({ testTimeout: 60 * 60_000 });

const pieces = piecesFetch();
// One provider for every case: its fetch answers with the pieces of the case being run.
const provider = anthropic({ apiKey: 'sk-ant-test', baseURL: 'http://fuzz.test', fetch: pieces.fetch });

const recorded: Record<string, string> = {
  text: fixture('text'),
  thinking: fixture('thinking'),
  'tool call': fixture('tool-call'),
  'three tool calls': fixture('three-tool-calls'),
  'escapes in arguments': fixture('escapes'),
  'cache usage': fixture('cache-usage'),
  'tool call cut by max_tokens': fixture('tool-call-cut-by-max-tokens'),
  'multi-byte text':
    messageStart() + textBlock(0, ['Grüße, ', '世界 ', '🌍🚀', ' — ok']) + messageEnd('end_turn'),
};

// A stream cut before its last event lacks message_stop: the model had not finished.
describeSseFuzz(
  Object.fromEntries(
    Object.entries(recorded).map(([name, text]) => [
      name,
      { text, provider, model: 'claude-sonnet-4-6', finishedFrom: text.lastIndexOf('event: ') },
    ]),
  ),
  { feed: pieces.feed, runs: 25 },
);
