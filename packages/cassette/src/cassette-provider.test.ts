import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfigError,
  type ModelEvent,
  type ModelRequest,
  type Provider,
  ProviderError,
  type StreamOptions,
} from '@agent-core/core';
import { mock } from '@agent-core/provider-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { CassetteError } from './cassette-error.js';
import { CassetteMissError } from './cassette-miss-error.js';
import { cassette } from './cassette-provider.js';
import { addTool, agentWith, cassetteFolder, collect, runPrompt, stable } from './test-support/agent-runs.js';

const script = () =>
  mock({
    turns: [
      { thinking: 'Add them.', toolCalls: [{ name: 'add', input: { a: 2, b: 3 } }] },
      { text: 'It is 5.', usage: { input: 30, output: 4, cost: 0.001 } },
    ],
    chunkSize: 3,
  });

afterEach(() => {
  delete process.env.AGENT_CORE_CASSETTE;
  delete process.env.MY_SERVICE_API_KEY;
});

describe('record, then replay', () => {
  it('replays a recorded run offline with the same events and result, asking the model nothing', async () => {
    const file = join(cassetteFolder(), 'add.json');
    const real = script();
    const recorder = await cassette({ file, provider: real, mode: 'record' });
    const recorded = await runPrompt(agentWith({ provider: recorder }), 'What is 2 + 3?');
    expect(recorded.result.terminateReason).toBe('completed');
    expect(real.calls).toBe(2);

    const offline = script();
    const player = await cassette({ file, provider: offline, mode: 'replay' });
    const replayed = await runPrompt(agentWith({ provider: player }), 'What is 2 + 3?');
    expect(offline.calls).toBe(0);
    expect(stable(replayed.events)).toEqual(stable(recorded.events));
    expect(stable(replayed.result)).toEqual(stable(recorded.result));
    expect(replayed.result.text).toBe('It is 5.');
    expect(player.unusedEntries()).toEqual([]);
    expect(player.misses).toEqual([]);
  });

  it('replays without the real provider, answering under the recorded name and model prices', async () => {
    const file = join(cassetteFolder(), 'add.json');
    const real = mock({
      name: 'priced',
      turns: [{ text: 'Hi.', usage: { input: 1_000_000, output: 0 } }],
      modelInfo: { contextWindow: 1000, maxOutputTokens: 100, pricing: { input: 2, output: 8 } },
    });
    const first = await runPrompt(
      agentWith({ provider: await cassette({ file, provider: real, mode: 'record' }) }),
      'Hello',
    );
    const player = await cassette({ file, mode: 'replay' });
    expect(player.name).toBe('priced');
    expect(player.modelInfo?.('test-model')?.pricing?.input).toBe(2);
    const second = await runPrompt(agentWith({ provider: player }), 'Hello');
    expect(second.result.usage).toEqual(first.result.usage);
    expect(second.result.usage.cost).toBe(2);
  });

  it('changes nothing the wrapped provider is sent or returns while recording', async () => {
    const seen: { request: ModelRequest; options: StreamOptions | undefined }[] = [];
    const yielded: ModelEvent[] = [];
    const inner = script();
    const spy: Provider = {
      name: 'spy',
      async *stream(request, options) {
        seen.push({ request, options });
        for await (const event of inner.stream(request, options)) {
          yielded.push(event);
          yield event;
        }
      },
    };
    const recorder = await cassette({
      file: join(cassetteFolder(), 'x.json'),
      provider: spy,
      mode: 'record',
    });
    const request: ModelRequest = { model: 'm', system: 's', messages: [{ role: 'user', content: 'hi' }] };
    const options = { signal: new AbortController().signal };
    const events = await collect(recorder.stream(request, options));
    expect(seen[0]?.request).toBe(request);
    expect(seen[0]?.options).toBe(options);
    expect(events).toHaveLength(yielded.length);
    for (const [index, event] of events.entries()) expect(event).toBe(yielded[index]);
    expect(request).toEqual({ model: 'm', system: 's', messages: [{ role: 'user', content: 'hi' }] });
  });
});

describe('a request with no recording', () => {
  it('fails closed with a diff naming the field when the system prompt changed', async () => {
    const file = join(cassetteFolder(), 'add.json');
    await runPrompt(
      agentWith({ provider: await cassette({ file, provider: script(), mode: 'record' }) }),
      'What is 2 + 3?',
    );
    const offline = script();
    const player = await cassette({ file, provider: offline, mode: 'replay' });
    const { result } = await runPrompt(
      agentWith({ provider: player, systemPrompt: 'You add numbers carefully.' }),
      'What is 2 + 3?',
    );
    expect(offline.calls).toBe(0);
    expect(result.terminateReason).toBe('error');
    const miss = player.misses[0];
    expect(miss).toBeInstanceOf(CassetteMissError);
    expect(miss?.nearest).toBe(0);
    expect(miss?.differences).toEqual([
      { path: 'system', before: 'You add numbers.', after: 'You add numbers carefully.' },
    ]);
    expect(result.error?.cause).toBe(miss);
    expect(result.error?.message).toContain(`No recorded reply in cassette ${file} for this request.`);
    expect(result.error?.message).toContain(
      '  system:\n    before: "You add numbers."\n    after:  "You add numbers carefully."',
    );
    expect(result.error?.message).toContain('AGENT_CORE_CASSETTE=record-missing');
  });

  it('names the message and field when a tool now answers otherwise', async () => {
    const file = join(cassetteFolder(), 'add.json');
    await runPrompt(
      agentWith({ provider: await cassette({ file, provider: script(), mode: 'record' }) }),
      'What is 2 + 3?',
    );
    const player = await cassette({ file, mode: 'replay' });
    const { result } = await runPrompt(
      agentWith({ provider: player, tools: [addTool(1)] }),
      'What is 2 + 3?',
    );
    expect(result.terminateReason).toBe('error');
    // The first call was served; the second carries the tool's new answer.
    expect(player.misses[0]?.nearest).toBe(1);
    expect(player.misses[0]?.differences).toEqual([
      {
        path: 'messages[2].content',
        before: '5',
        after: '6',
        message: 2,
        label: "messages[2] (toolResult of call_1 'add')",
      },
    ]);
    expect(result.error?.message).toContain(
      "messages[2].content in messages[2] (toolResult of call_1 'add')",
    );
  });

  it('refuses a request asked more often than it was recorded', async () => {
    const file = join(cassetteFolder(), 'hi.json');
    const request: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    const recorder = await cassette({
      file,
      provider: mock({ turns: [{ text: 'Hello.' }] }),
      mode: 'record',
    });
    await collect(recorder.stream(request));
    const player = await cassette({ file, mode: 'replay' });
    expect((await collect(player.stream(request))).at(-1)?.type).toBe('done');
    const [again] = await collect(player.stream(request));
    expect(again?.type).toBe('error');
    expect(again?.type === 'error' && again.error.message).toContain(
      'Entry 0 recorded this very request, and its reply was served already',
    );
  });

  it('matches tool calls by their order, whatever ids a provider gave them', async () => {
    const file = join(cassetteFolder(), 'ids.json');
    const history = (id: string): ModelRequest => ({
      model: 'm',
      messages: [
        { role: 'user', content: 'add' },
        {
          role: 'assistant',
          content: [{ type: 'toolCall', id, name: 'add', input: { a: 1, b: 1 } }],
          stopReason: 'tool_use',
        },
        { role: 'toolResult', toolCallId: id, toolName: 'add', content: '2', isError: false },
      ],
    });
    const recorder = await cassette({ file, provider: mock({ turns: [{ text: 'Two.' }] }), mode: 'record' });
    await collect(recorder.stream(history('mock_1a2b3c4d_1')));
    const player = await cassette({ file, mode: 'replay' });
    const events = await collect(player.stream(history('toolu_01XYZ')));
    expect(events.at(-1)).toMatchObject({ type: 'done', message: { content: [{ text: 'Two.' }] } });
  });
});

describe('modes', () => {
  it('takes the mode from AGENT_CORE_CASSETTE when the code names none, and refuses a wrong one', async () => {
    const file = join(cassetteFolder(), 'env.json');
    process.env.AGENT_CORE_CASSETTE = 'record';
    const recorder = await cassette({ file, provider: script() });
    expect(recorder.mode).toBe('record');
    process.env.AGENT_CORE_CASSETTE = 'replay';
    await expect(cassette({ file })).rejects.toMatchObject({ code: 'cassette_not_found', file });
    process.env.AGENT_CORE_CASSETTE = 'recrod';
    await expect(cassette({ file, provider: script() })).rejects.toThrow(
      "Unknown cassette AGENT_CORE_CASSETTE=recrod: use one of 'replay', 'record', 'record-missing'.",
    );
    delete process.env.AGENT_CORE_CASSETTE;
    expect((await cassette({ cassette: { entries: [] } })).mode).toBe('replay');
  });

  it('refuses options that cannot work, at once', async () => {
    await expect(cassette({})).rejects.toBeInstanceOf(ConfigError);
    await expect(cassette({ file: 'a.json', cassette: { entries: [] } })).rejects.toBeInstanceOf(ConfigError);
    await expect(cassette({ file: 'a.json', mode: 'record' })).rejects.toThrow(
      "cassette() in mode 'record' sends requests to the real model: pass it as `provider`",
    );
  });

  it('record-missing serves what is recorded and records the rest into the same file', async () => {
    const file = join(cassetteFolder(), 'grow.json');
    const first: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'one' }] };
    const second: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'two' }] };
    await collect(
      (await cassette({ file, provider: mock({ turns: [{ text: 'One.' }] }), mode: 'record' })).stream(first),
    );
    const real = mock({ turns: [{ text: 'Two.' }] });
    const grower = await cassette({ file, provider: real, mode: 'record-missing' });
    expect((await collect(grower.stream(first))).at(-1)).toMatchObject({
      message: { content: [{ text: 'One.' }] },
    });
    expect(real.calls).toBe(0);
    expect((await collect(grower.stream(second))).at(-1)).toMatchObject({
      message: { content: [{ text: 'Two.' }] },
    });
    expect(real.calls).toBe(1);
    const player = await cassette({ file, mode: 'replay' });
    expect((await collect(player.stream(second))).at(-1)).toMatchObject({
      message: { content: [{ text: 'Two.' }] },
    });
    expect(player.unusedEntries()).toEqual([0]);
  });

  it('record rewrites the cassette with this run only, byte for byte the same each time', async () => {
    const file = join(cassetteFolder(), 'stable.json');
    const fixed = () =>
      mock({
        turns: [{ toolCalls: [{ name: 'add', input: { b: 3, a: 2 }, id: 'call_a' }] }, { text: 'It is 5.' }],
      });
    await runPrompt(
      agentWith({ provider: await cassette({ file, provider: fixed(), mode: 'record' }) }),
      'Add.',
    );
    const once = readFileSync(file, 'utf8');
    await runPrompt(
      agentWith({ provider: await cassette({ file, provider: fixed(), mode: 'record' }) }),
      'Add.',
    );
    expect(readFileSync(file, 'utf8')).toBe(once);
    expect(once).not.toMatch(/20\d\d-\d\d-\d\dT/);
    const parsed = JSON.parse(once);
    expect(parsed.entries).toHaveLength(2);
    // The second request continues the first: only its new messages are written.
    expect(parsed.entries[1].request).toEqual({
      continues: 0,
      messages: [
        {
          content: [{ id: 'call_1', input: { a: 2, b: 3 }, name: 'add', type: 'toolCall' }],
          role: 'assistant',
        },
        { content: '5', isError: false, role: 'toolResult', toolCallId: 'call_1', toolName: 'add' },
      ],
    });
  });
});

describe('failures while recording', () => {
  it('makes the folder of a cassette that has none yet', async () => {
    const file = join(cassetteFolder(), 'new', 'folder', 'hi.json');
    const recorder = await cassette({
      file,
      provider: mock({ turns: [{ text: 'Hello.' }] }),
      mode: 'record',
    });
    await collect(recorder.stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    expect(JSON.parse(readFileSync(file, 'utf8')).entries).toHaveLength(1);
  });

  it('keeps the retry, not the transient failure, unless told to record failures', async () => {
    const flaky = () => mock({ turns: [{ error: { kind: 'overloaded' } }, { text: 'Fine.' }] });
    const request: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    const file = join(cassetteFolder(), 'flaky.json');
    const recorder = await cassette({ file, provider: flaky(), mode: 'record' });
    expect((await collect(recorder.stream(request)))[0]?.type).toBe('error');
    await collect(recorder.stream(request));
    expect(recorder.recorded().entries).toHaveLength(1);

    const withErrors = await cassette({ file, provider: flaky(), mode: 'record', recordErrors: true });
    await collect(withErrors.stream(request));
    await collect(withErrors.stream(request));
    const player = await cassette({ file, mode: 'replay' });
    const [failed] = await collect(player.stream(request));
    expect(failed).toMatchObject({ type: 'error', error: { kind: 'overloaded', retryable: true } });
    expect(failed?.type === 'error' && failed.error).toBeInstanceOf(ProviderError);
    expect((await collect(player.stream(request))).at(-1)?.type).toBe('done');
  });

  it('reports a file it cannot write as an error naming the file, not as a recorded reply', async () => {
    const recorder = await cassette({
      file: '/cassettes/x.json',
      provider: script(),
      mode: 'record',
      files: {
        read: async () => undefined,
        write: async () => {
          throw new Error('EROFS: read-only file system');
        },
      },
    });
    const events = await collect(
      recorder.stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    );
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    const error = last?.type === 'error' ? last.error : undefined;
    expect(error?.message).toContain(
      'Cassette /cassettes/x.json could not be written (EROFS: read-only file system)',
    );
    expect(error?.cause).toBeInstanceOf(CassetteError);
  });

  it('ends a replay at once with an aborted message when the signal aborts', async () => {
    const player = await cassette({
      cassette: {
        entries: [
          {
            request: { messages: [{ role: 'user', content: 'hi' }] },
            reply: [
              { type: 'text_delta', delta: 'Hel' },
              { type: 'text_delta', delta: 'lo.' },
              {
                type: 'done',
                message: {
                  role: 'assistant',
                  content: [{ type: 'text', text: 'Hello.' }],
                  stopReason: 'end_turn',
                },
              },
            ],
          },
        ],
      },
    });
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    for await (const event of player.stream(
      { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      { signal: controller.signal },
    )) {
      events.push(event);
      controller.abort();
    }
    expect(events).toEqual([
      { type: 'text_delta', delta: 'Hel' },
      {
        type: 'done',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: 'Hel' }],
          stopReason: 'aborted',
          provider: 'cassette',
        },
      },
    ]);
  });
});
