import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, AgentBusyError, ConfigError, defineTool, ProviderError, type ModelEvent } from '../index.js';
import { callsDone, inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { stepAgent } from '../test-support/step-agent.js';

const echo = defineTool({
  name: 'echo',
  description: 'echoes',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

function failing(
  kind: ProviderError['kind'],
  extra: { retryAfterMs?: number; status?: number } = {},
): ModelEvent[] {
  return [{ type: 'error', error: new ProviderError({ kind, message: `${kind} happened`, ...extra }) }];
}

describe('Agent configuration', () => {
  it('refuses a missing provider, model, bad maxTurns and duplicate tools with clear errors', () => {
    const provider = inlineProvider([]);
    expect(() => new Agent({ provider: {} as never, model: 'm' })).toThrow(ConfigError);
    expect(() => new Agent({ provider, model: '' })).toThrow(/needs a model name/);
    expect(() => new Agent({ provider, model: 'm', limits: { maxTurns: 0 } })).toThrow(
      /maxTurns must be a positive integer/,
    );
    expect(() => new Agent({ provider, model: 'm', tools: [echo, echo] })).toThrow(
      /Two tools are named 'echo'/,
    );
  });

  it('refuses a second prompt while running, and reset while running', async () => {
    const agent = stepAgent({ provider: inlineProvider([[textDone('a')]]) });
    const run = agent.prompt('one');
    expect(() => agent.prompt('two')).toThrow(AgentBusyError);
    expect(() => agent.reset()).toThrow(AgentBusyError);
    await run.result();
    agent.reset();
    expect(agent.messages).toEqual([]);
  });

  it('takes images as prompt content and whole messages', async () => {
    const provider = inlineProvider([[textDone('a')], [textDone('b')]]);
    const agent = stepAgent({ provider });
    await agent.prompt([{ type: 'image', data: 'AAAA', mimeType: 'image/png' }]).result();
    await agent.prompt({ role: 'user', content: 'plain' }).result();
    expect(provider.requests[0]?.messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }],
    });
    expect(provider.requests[1]?.messages.at(-1)).toEqual({ role: 'user', content: 'plain' });
  });
});

describe('retries and fallback', () => {
  it('honours Retry-After, then succeeds', async () => {
    const provider = inlineProvider([failing('rate_limit', { retryAfterMs: 30 }), [textDone('ok')]]);
    const agent = stepAgent({ provider, retry: { baseDelayMs: 1 } });
    const delays: number[] = [];
    agent.subscribe((event) => event.type === 'retry' && delays.push(event.delayMs));
    const result = await agent.prompt('hi').result();
    expect(result.text).toBe('ok');
    expect(delays).toEqual([30]);
  });

  it('retries up to maxRetries, then the fallback provider answers', async () => {
    const primary = inlineProvider([failing('server'), failing('server'), failing('server')]);
    const fallback = inlineProvider([[textDone('from fallback')]], 'backup');
    const agent = stepAgent({
      provider: primary,
      fallbackProvider: fallback,
      fallbackModel: 'backup-model',
      retry: { maxRetries: 2, baseDelayMs: 1 },
    });
    const result = await agent.prompt('hi').result();
    expect(primary.requests).toHaveLength(3);
    expect(fallback.requests[0]?.model).toBe('backup-model');
    expect(result.text).toBe('from fallback');
  });

  it('never retries or falls back for a request the provider refuses', async () => {
    const primary = inlineProvider([failing('invalid_request', { status: 400 })]);
    const fallback = inlineProvider([[textDone('never')]]);
    const agent = stepAgent({ provider: primary, fallbackProvider: fallback });
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('error');
    expect(ProviderError.isInstance(result.error) && result.error.kind).toBe('invalid_request');
    expect(fallback.requests).toHaveLength(0);
  });

  it('an abort during the backoff returns at once', async () => {
    const agent = stepAgent({ provider: inlineProvider([failing('overloaded', { retryAfterMs: 60_000 })]) });
    agent.subscribe((event) => event.type === 'retry' && agent.abort());
    expect((await agent.prompt('hi').result()).terminateReason).toBe('aborted');
  });

  it('a stream that goes silent fails as a retryable network error', async () => {
    const silent = async function* (
      _request: unknown,
      signal: AbortSignal | undefined,
    ): AsyncGenerator<ModelEvent> {
      yield { type: 'text_delta', delta: 'hel' };
      await new Promise((resolve) => signal?.addEventListener('abort', resolve));
      yield { type: 'error', error: new ProviderError({ kind: 'fatal', message: 'aborted' }) };
    };
    const provider = inlineProvider([silent, [textDone('hello')]]);
    const agent = stepAgent({ provider, streamIdleTimeoutMs: 20, retry: { baseDelayMs: 1 } });
    const retries: string[] = [];
    agent.subscribe(
      (event) => event.type === 'retry' && retries.push(`${event.error.kind} ${event.discardedPartial}`),
    );
    const result = await agent.prompt('hi').result();
    expect(retries).toEqual(['network true']);
    expect(result.text).toBe('hello');
  });

  it('a provider that throws instead of reporting ends the run with a clear error', async () => {
    const agent = stepAgent({ provider: inlineProvider([]) });
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('error');
    expect(result.error?.message).toMatch(/threw instead of reporting an error event/);
  });
});

describe('history', () => {
  it('answers tool calls left dangling in a stored history before the new prompt', async () => {
    const provider = inlineProvider([[textDone('ok')]]);
    const agent = stepAgent({
      provider,
      messages: [
        { role: 'user', content: 'old' },
        {
          role: 'assistant',
          content: [{ type: 'toolCall', id: 'c1', name: 'echo', input: {} }],
          stopReason: 'tool_use',
        },
      ],
    });
    await agent.prompt('new').result();
    expect(provider.requests[0]?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'user',
    ]);
  });

  it('filters app-defined messages before the model call, or maps them with convertToLlm', async () => {
    const note = { role: 'note', text: 'remember' } as never;
    const plain = inlineProvider([[textDone('a')]]);
    await stepAgent({ provider: plain, messages: [note] })
      .prompt('q')
      .result();
    expect(plain.requests[0]?.messages).toEqual([{ role: 'user', content: 'q' }]);

    const mapped = inlineProvider([[textDone('a')]]);
    await stepAgent({
      provider: mapped,
      messages: [note],
      convertToLlm: (messages) =>
        messages.map((message) =>
          message.role === 'user' ? message : { role: 'user', content: 'note: remember' },
        ) as never,
    })
      .prompt('q')
      .result();
    expect(mapped.requests[0]?.messages[0]).toEqual({ role: 'user', content: 'note: remember' });
  });

  it('gives a call without an id one of its own, so its result pairs with it', async () => {
    const provider = inlineProvider([
      [
        callsDone([
          { id: 'first', name: 'echo', input: { text: 'a' } },
          { id: '', name: 'echo', input: { text: 'c' } },
        ]),
      ],
      [textDone('done')],
    ]);
    const agent = stepAgent({ provider, tools: [echo] });
    const result = await agent.prompt('go').result();
    const ids = result.toolCalls.map((call) => call.id);
    expect(ids[0]).toBe('first');
    expect(new Set(ids).size).toBe(2);
    expect(result.toolCalls.map((call) => call.result)).toEqual(['a', 'c']);
  });

  it('refuses a reply with one tool-call id twice instead of renaming a call silently', async () => {
    const provider = inlineProvider([
      [
        callsDone([
          { id: 'same', name: 'echo', input: { text: 'a' } },
          { id: 'same', name: 'echo', input: { text: 'b' } },
        ]),
      ],
    ]);
    const agent = stepAgent({ provider, tools: [echo] });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('error');
    expect(result.error?.code).toBe('duplicate_tool_call_id');
    expect(result.error?.message).toMatch(/has two tool calls with id 'same'/);
    expect(result.toolCalls).toEqual([]);
    expect(agent.messages).toEqual([{ role: 'user', content: 'go' }]);
  });

  it('fills the cost from modelInfo when the provider gave none', async () => {
    const provider = {
      ...inlineProvider([
        [
          {
            type: 'done',
            message: {
              role: 'assistant',
              content: [{ type: 'text', text: 'x' }],
              stopReason: 'end_turn',
              usage: { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 },
            },
          },
        ],
      ]),
      modelInfo: () => ({ contextWindow: 1000, maxOutputTokens: 100, pricing: { input: 3, output: 15 } }),
    };
    const result = await stepAgent({ provider }).prompt('q').result();
    expect(result.usage.cost).toBe(3);
  });

  it('runs a one-tool conversation and reports it', async () => {
    const provider = inlineProvider([[toolDone('echo', { text: 'hi' })], [textDone('said hi')]]);
    const result = await stepAgent({ provider, tools: [echo] })
      .prompt('q')
      .result();
    expect(result.toolCalls[0]).toMatchObject({ name: 'echo', result: 'hi', isError: false });
    expect(result.turns).toBe(2);
  });
});

describe('setup failures', () => {
  it('a tool whose schema cannot be converted fails the run with a clear error; result() still resolves', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'a zod-shaped object zod cannot convert',
      parameters: { _zod: { def: { type: 'no-such-type' } } } as never,
      execute: () => 'never',
    });
    const provider = inlineProvider([[textDone('x')]]);
    const agent = stepAgent({ provider, tools: [broken] });
    const types: string[] = [];
    agent.subscribe((event) => types.push(event.type));
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('error');
    expect(result.error?.message).toMatch(
      /Tool 'broken' has a zod schema that cannot be expressed as JSON Schema/,
    );
    expect(provider.requests).toHaveLength(0);
    expect(types).toEqual(['agent_start', 'error', 'agent_end']);
  });
});

describe('setTools', () => {
  it('replaces the tools from the next prompt on, and refuses duplicates', async () => {
    const shout = defineTool({
      name: 'shout',
      description: '',
      parameters: z.object({}),
      execute: () => 'HEY',
    });
    const provider = inlineProvider([
      [toolDone('shout', {}, 'shout_1')],
      [textDone('a')],
      [toolDone('shout', {}, 'shout_2')],
      [textDone('b')],
    ]);
    const agent = stepAgent({ provider, tools: [echo] });
    const before = await agent.prompt('one').result();
    expect(before.toolCalls[0]?.result).toMatch(/Unknown tool 'shout'. Available tools: echo/);
    agent.setTools([echo, shout]);
    expect(agent.tools.map((tool) => tool.name)).toEqual(['echo', 'shout']);
    const after = await agent.prompt('two').result();
    expect(after.toolCalls[0]?.result).toBe('HEY');
    expect(provider.requests[2]?.tools?.map((tool) => tool.name)).toEqual(['echo', 'shout']);
    expect(() => agent.setTools([shout, shout])).toThrow(/Two tools are named 'shout'/);
  });
});

describe('listeners', () => {
  it('leaves no abort listener behind on the caller signal after a long run, and Node never warns', async () => {
    const { getEventListeners } = await import('node:events');
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const steps = 30;
    const replies = Array.from({ length: steps }, (_, index) => [
      toolDone('echo', { text: String(index) }, `c${index}`),
    ]);
    const provider = inlineProvider([...replies, [textDone('done')]]);
    const agent = stepAgent({ provider, tools: [echo], limits: { maxTurns: steps + 1 } });
    const controller = new AbortController();
    const result = await agent.prompt('go', { signal: controller.signal }).result();
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(result.toolCalls).toHaveLength(steps);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
