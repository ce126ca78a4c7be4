import type { ModelEvent, ModelRequest } from '@agent-core/core';
import { MemorySessionStore, SessionManager } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { cassette } from './cassette-provider.js';
import { noteRequests, type RequestNote } from './note-requests.js';
import { sessionCassette } from './session-cassette.js';
import { addTool, agentWith, collect, runPrompt } from './test-support/agent-runs.js';

const request = (system: string): ModelRequest => ({
  model: 'm',
  system,
  temperature: 0,
  tools: [{ name: 'add', description: 'Adds', parameters: { type: 'object' } }],
  messages: [{ role: 'user', content: 'hi' }],
});

function noteOf(events: readonly ModelEvent[]): RequestNote | undefined {
  const done = events.at(-1);
  return done?.type === 'done' ? (done.message as unknown as { request?: RequestNote }).request : undefined;
}

describe('noteRequests', () => {
  it('notes on each reply the request it answered, the prompt and tools whole only when they change', async () => {
    const inner = mock({ turns: [{ text: 'A.' }, { text: 'B.' }, { text: 'C.' }], chunkSize: 2 });
    const provider = noteRequests(inner);
    const first = await collect(provider.stream(request('Be brief. Key: sk-abcdefghijklmnop')));
    const second = await collect(provider.stream(request('Be brief. Key: sk-abcdefghijklmnop')));
    const third = await collect(provider.stream(request('Be long.')));
    expect(first.slice(0, -1).map((event) => event.type)).toEqual(['text_delta', 'usage']);
    expect(noteOf(first)).toMatchObject({
      model: 'm',
      system: 'Be brief. Key: sk-[REDACTED]',
      tools: [{ name: 'add', description: 'Adds', parameters: { type: 'object' } }],
      settings: { temperature: 0 },
    });
    expect(noteOf(second)).toEqual({
      model: 'm',
      systemDigest: noteOf(first)?.systemDigest,
      toolsDigest: noteOf(first)?.toolsDigest,
      settings: { temperature: 0 },
    });
    expect(noteOf(third)?.system).toBe('Be long.');
    expect(noteOf(third)?.systemDigest).not.toBe(noteOf(first)?.systemDigest);
    expect(noteOf(third)?.tools).toBeUndefined();
    expect(inner.requests[0]?.system).toBe('Be brief. Key: sk-abcdefghijklmnop');
  });

  it('makes a stored session a whole cassette: a changed system prompt or tool is a divergence', async () => {
    const store = new MemorySessionStore();
    const provider = noteRequests(
      mock({ turns: [{ toolCalls: [{ name: 'add', input: { a: 2, b: 3 } }] }, { text: 'It is 5.' }] }),
    );
    const manager = new SessionManager({
      store,
      agentOptions: () => ({
        provider,
        model: 'test-model',
        systemPrompt: 'You add numbers.',
        tools: [addTool()],
        orchestrator: stepOrchestrator,
      }),
    });
    const session = await manager.create();
    await session.prompt('What is 2 + 3?').result();
    const { cassette: recorded } = await sessionCassette(store, session.id);
    expect(recorded.entries[1]?.request).toMatchObject({ system: 'You add numbers.', settings: {} });
    // The note is about the recording: a replayed reply does not carry it.
    expect(JSON.stringify(recorded.entries[0]?.reply)).not.toContain('systemDigest');

    const same = await cassette({ cassette: recorded });
    expect((await runPrompt(agentWith({ provider: same }), 'What is 2 + 3?')).result.text).toBe('It is 5.');
    expect(same.misses).toEqual([]);

    const prompt = await cassette({ cassette: recorded });
    await runPrompt(agentWith({ provider: prompt, systemPrompt: 'You add numbers fast.' }), 'What is 2 + 3?');
    expect(prompt.misses[0]?.differences).toEqual([
      { path: 'system', before: 'You add numbers.', after: 'You add numbers fast.' },
    ]);
  });
});
