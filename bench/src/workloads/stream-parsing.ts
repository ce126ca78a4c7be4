import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Provider } from '@agent-core/core';
import { anthropic } from '@agent-core/provider-anthropic';
import { openai } from '@agent-core/provider-openai';
import { median, time } from '../measure.js';
import type { StreamParsingResult } from '../results.js';
import { anthropicStream, openaiChatStream } from './sse-recordings.js';

/** Starts the SSE server in its own process; resolves with its origin and a stop function. */
export async function startSseServer(events: number): Promise<{ origin: string; stop: () => Promise<void> }> {
  // From src/ (tests) and dist/ alike: the server runs built, as its own process.
  const script = fileURLToPath(new URL('../../dist/sse-server.js', import.meta.url));
  const child = spawn(process.execPath, [script, String(events)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

/** The floor: fetch, decode, split events, JSON.parse each data line. Returns events parsed. */
export async function bareParse(url: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
  });
  const reader = (response.body as ReadableStream<Uint8Array>)
    .pipeThrough(new TextDecoderStream())
    .getReader();
  let buffer = '';
  let events = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.slice(block.indexOf('data: ') + 6);
      if (data !== '[DONE]') JSON.parse(data);
      events++;
      end = buffer.indexOf('\n\n');
    }
  }
  return events;
}

async function readAll(provider: Provider, model: string): Promise<number> {
  let count = 0;
  for await (const event of provider.stream({ model, messages: [{ role: 'user', content: 'Hi' }] })) {
    count++;
    if (event.type === 'error') throw event.error;
  }
  return count;
}

/** Workload 7: a recorded-format stream of `events` events through each provider, against the floor. */
export async function streamParsing(events = 10_000, samples = 7): Promise<StreamParsingResult[]> {
  const server = await startSseServer(events);
  try {
    const cases = [
      {
        provider: '@agent-core/provider-anthropic',
        format: 'Anthropic Messages SSE',
        bytes: Buffer.byteLength(anthropicStream(events)),
        instance: anthropic({ apiKey: 'bench', baseURL: server.origin }),
        model: 'claude-sonnet-4-6',
        path: '/v1/messages',
      },
      {
        provider: '@agent-core/provider-openai',
        format: 'OpenAI Chat Completions SSE',
        bytes: Buffer.byteLength(openaiChatStream(events)),
        instance: openai({ apiKey: 'bench', baseURL: `${server.origin}/v1`, api: 'chat' }),
        model: 'gpt-4o-mini',
        path: '/v1/chat/completions',
      },
    ];
    const results: StreamParsingResult[] = [];
    for (const entry of cases) {
      const url = server.origin + entry.path;
      let modelEvents = await readAll(entry.instance, entry.model);
      await bareParse(url);
      const times: number[] = [];
      const bareTimes: number[] = [];
      for (let index = 0; index < samples; index++) {
        times.push(
          await time(async () => {
            modelEvents = await readAll(entry.instance, entry.model);
          }),
        );
        bareTimes.push(await time(() => bareParse(url)));
      }
      results.push({
        provider: entry.provider,
        format: entry.format,
        events,
        bytes: entry.bytes,
        medianMs: median(times),
        bareMedianMs: median(bareTimes),
        modelEvents,
      });
    }
    return results;
  } finally {
    await server.stop();
  }
}
