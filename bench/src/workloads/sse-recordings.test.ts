import { anthropic } from '@agent-core/provider-anthropic';
import { openai } from '@agent-core/provider-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicStream, openaiChatStream } from './sse-recordings.js';
import { bareParse, startSseServer } from './stream-parsing.js';

const events = 200;
let server: Awaited<ReturnType<typeof startSseServer>>;

beforeAll(async () => {
  server = await startSseServer(events);
});
afterAll(async () => {
  await server.stop();
});

const request = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'Hi' }] });

describe('recorded-format streams', () => {
  it('have exactly the number of SSE events asked for', () => {
    expect(anthropicStream(events).split('\n\n').filter(Boolean)).toHaveLength(events);
    expect(openaiChatStream(events).split('\n\n').filter(Boolean)).toHaveLength(events);
  });

  it('are read whole by the floor parser from the local server', async () => {
    expect(await bareParse(`${server.origin}/v1/messages`)).toBe(events);
    expect(await bareParse(`${server.origin}/v1/chat/completions`)).toBe(events);
  });

  it('parse through provider-anthropic into every text delta and the final message', async () => {
    const provider = anthropic({ apiKey: 'bench', baseURL: server.origin });
    const seen: string[] = [];
    let text = '';
    for await (const event of provider.stream(request('claude-sonnet-4-6'))) {
      seen.push(event.type);
      if (event.type === 'done')
        text = event.message.content.map((block) => ('text' in block ? block.text : '')).join('');
    }
    expect(seen.filter((type) => type === 'text_delta')).toHaveLength(events - 5);
    expect(seen.at(-1)).toBe('done');
    expect(text.startsWith('w0 w1 w2 ')).toBe(true);
  });

  it('parse through provider-openai (chat) into every text delta and the final message', async () => {
    const provider = openai({ apiKey: 'bench', baseURL: `${server.origin}/v1`, api: 'chat' });
    const seen: string[] = [];
    for await (const event of provider.stream(request('gpt-4o-mini'))) seen.push(event.type);
    expect(seen.filter((type) => type === 'text_delta')).toHaveLength(events - 4);
    expect(seen.at(-1)).toBe('done');
  });
});
