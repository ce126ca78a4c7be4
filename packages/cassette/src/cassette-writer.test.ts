import type { ModelRequest } from '@agent-core/core';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { cassette } from './cassette-provider.js';
import { formatCassette } from './cassette-writer.js';
import { parseCassette } from './parse-cassette.js';
import { agentWith, collect, runPrompt } from './test-support/agent-runs.js';

describe('formatCassette', () => {
  it('writes a long conversation in size linear in its steps, each step its new messages only', async () => {
    const steps = 60;
    const provider = mock({
      turns: (_request, call) =>
        call < steps ? { toolCalls: [{ name: 'add', input: { a: call, b: 1 } }] } : { text: 'Done.' },
      chunkSize: 0,
    });
    const recorder = await cassette({ cassette: { entries: [] }, provider, mode: 'record' });
    const { result } = await runPrompt(
      agentWith({ provider: recorder, limits: { maxTurns: steps + 1 } }),
      'Count.',
    );
    expect(result.terminateReason).toBe('completed');
    const text = formatCassette(recorder.recorded());
    const data = JSON.parse(text);
    expect(data.entries).toHaveLength(steps + 1);
    data.entries
      .slice(1)
      .forEach((entry: { request: { continues: number; messages: unknown[] } }, index: number) => {
        expect(entry.request.continues).toBe(index);
        expect(entry.request.messages).toHaveLength(2);
      });
    // Every message is written once: the requests hold as many as the history has before the last answer.
    const written = data.entries.reduce(
      (sum: number, entry: { request: { messages: unknown[] } }) => sum + entry.request.messages.length,
      0,
    );
    expect(written).toBe(result.messages.length - 1);
    expect(parseCassette(text).entries.at(-1)?.request.messages).toHaveLength(result.messages.length - 1);
  });

  it('restates a field that changed from the entry it continues, and only that one', async () => {
    const provider = mock({ turns: [{ text: 'A.' }, { text: 'B.' }], chunkSize: 0 });
    const recorder = await cassette({ cassette: { entries: [] }, provider, mode: 'record' });
    const first: ModelRequest = { model: 'm', system: 'one', messages: [{ role: 'user', content: 'hi' }] };
    await collect(recorder.stream(first));
    await collect(recorder.stream({ ...first, system: 'two', temperature: 0 }));
    const data = JSON.parse(formatCassette(recorder.recorded()));
    expect(data.entries[1].request).toEqual({
      continues: 0,
      system: 'two',
      settings: { temperature: 0 },
      messages: [],
    });
    expect(parseCassette(formatCassette(recorder.recorded())).entries[1]?.request).toMatchObject({
      model: 'm',
      system: 'two',
      tools: [],
    });
  });
});
