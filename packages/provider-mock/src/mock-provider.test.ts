import { getProvider, type ModelEvent, type ModelRequest } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { mock } from './index.js';

const request: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

async function events(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const all: ModelEvent[] = [];
  for await (const event of stream) all.push(event);
  return all;
}

describe('mock provider', () => {
  it('streams text, thinking and tool calls as deltas in chunks, then the whole message', async () => {
    const provider = mock({
      turns: [{ thinking: 'hmm', text: 'abcdefg', toolCalls: [{ name: 'add', input: { a: 1 }, id: 'c1' }] }],
      chunkSize: 3,
    });
    const all = await events(provider.stream(request));
    expect(all.map((event) => event.type)).toEqual([
      'thinking_delta',
      'text_delta',
      'text_delta',
      'text_delta',
      'toolcall_start',
      'toolcall_delta',
      'toolcall_delta',
      'toolcall_delta',
      'toolcall_end',
      'usage',
      'done',
    ]);
    const done = all.at(-1);
    expect(done).toMatchObject({
      type: 'done',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm' },
          { type: 'text', text: 'abcdefg' },
          { type: 'toolCall', id: 'c1', name: 'add', input: { a: 1 } },
        ],
        stopReason: 'tool_use',
        provider: 'mock',
        model: 'm',
      },
    });
    const partialJson = all
      .flatMap((event) => (event.type === 'toolcall_delta' ? [event.delta] : []))
      .join('');
    expect(JSON.parse(partialJson)).toEqual({ a: 1 });
  });

  it('makes tool-call ids that count up within a provider and differ between providers', async () => {
    const idsOf = async (provider: ReturnType<typeof mock>) => {
      const ids: string[] = [];
      for (let call = 0; call < 2; call++)
        for (const event of await events(provider.stream(request)))
          if (event.type === 'toolcall_end') ids.push(event.toolCall.id);
      return ids;
    };
    const script = () =>
      mock({ turns: [{ toolCalls: [{ name: 'a' }, { name: 'b' }] }, { toolCalls: [{ name: 'c' }] }] });
    const first = await idsOf(script());
    // A second provider stands for the same script run again in another process, on the same stored session.
    const second = await idsOf(script());
    expect(first).toHaveLength(3);
    expect(first[0]).toMatch(/^mock_[0-9a-f]{8}_1$/);
    expect(first.map((id) => id.split('_').at(-1))).toEqual(['1', '2', '3']);
    expect(new Set([...first, ...second]).size).toBe(6);
  });

  it('records each request as it was at call time', async () => {
    const provider = mock({ turns: [{ text: 'a' }, { text: 'b' }] });
    const messages = [{ role: 'user' as const, content: 'one' }];
    await events(provider.stream({ model: 'm', messages }));
    messages.push({ role: 'user', content: 'two' });
    await events(provider.stream({ model: 'm', messages }));
    expect(provider.requests.map((sent) => sent.messages.length)).toEqual([1, 2]);
    expect(provider.calls).toBe(2);
  });

  it('fails before any output, or mid-stream after some chunks, with the scripted kind', async () => {
    const provider = mock({
      turns: [
        { error: { kind: 'rate_limit', retryAfterMs: 1500, status: 429 } },
        { text: 'abcdef', error: { kind: 'overloaded', afterChunks: 2 } },
      ],
      chunkSize: 2,
    });
    const first = await events(provider.stream(request));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      type: 'error',
      error: { kind: 'rate_limit', retryAfterMs: 1500, status: 429, retryable: true },
    });
    const second = await events(provider.stream(request));
    expect(second.map((event) => event.type)).toEqual(['text_delta', 'text_delta', 'error']);
  });

  it('says clearly when the script runs out', async () => {
    const provider = mock({ turns: [] });
    const [event] = await events(provider.stream(request));
    expect(event).toMatchObject({ type: 'error', error: { kind: 'fatal' } });
    expect(event?.type === 'error' && event.error.message).toMatch(
      /no reply scripted for call 1 \(it has 0\)/,
    );
  });

  it('ends with an aborted message when the signal aborts during latency or a hang', async () => {
    const provider = mock({ turns: [{ text: 'late', latencyMs: 10_000 }, { hang: true }] });
    for (let call = 0; call < 2; call++) {
      const controller = new AbortController();
      setImmediate(() => controller.abort());
      const all = await events(provider.stream(request, { signal: controller.signal }));
      expect(all).toEqual([
        { type: 'done', message: expect.objectContaining({ stopReason: 'aborted', content: [] }) },
      ]);
    }
  });

  it('answers through a function of the request, and is registered by name', async () => {
    const provider = mock({ turns: (sent, call) => ({ text: `${call}:${sent.messages.length}` }) });
    const all = await events(provider.stream(request));
    expect(all.at(-1)).toMatchObject({ message: { content: [{ text: '0:1' }] } });
    expect(getProvider('mock', { turns: [{ text: 'x' }] }).name).toBe('mock');
  });

  it('sends only the final message with chunkSize 0, with the scripted usage', async () => {
    const provider = mock({
      turns: [{ text: 'whole', usage: { input: 7, output: 3, cost: 0.01 } }],
      chunkSize: 0,
    });
    const all = await events(provider.stream(request));
    expect(all.map((event) => event.type)).toEqual(['usage', 'done']);
    expect(all[0]).toEqual({
      type: 'usage',
      usage: { input: 7, output: 3, cacheRead: 0, cacheWrite: 0, cost: 0.01 },
    });
  });
});
