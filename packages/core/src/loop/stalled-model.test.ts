import { describe, expect, it } from 'vitest';
import { type Agent, type AgentEvent, type ModelEvent, type Provider, ProviderError } from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';
import { stepAgent } from '../test-support/step-agent.js';

/** Sends one delta, then nothing until aborted, then a done marked aborted: what a well-behaved provider does. */
async function* stallsPolitely(
  _request: unknown,
  signal: AbortSignal | undefined,
): AsyncGenerator<ModelEvent> {
  yield { type: 'text_delta', delta: 'Half an ans' };
  await new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true }));
  yield {
    type: 'done',
    message: { role: 'assistant', content: [{ type: 'text', text: 'Half an ans' }], stopReason: 'aborted' },
  };
}

/** Never answers and never looks at its signal; after a while it yields text nobody should see. */
function deaf(log: string[], silentMs = 50, onYield?: () => void) {
  return async function* (): AsyncGenerator<ModelEvent> {
    await new Promise((resolve) => setTimeout(resolve, silentMs));
    log.push('deaf provider yielded');
    onYield?.();
    yield { type: 'text_delta', delta: 'too late' };
    yield textDone('too late');
  };
}

function hangsForever(): AsyncGenerator<ModelEvent> {
  return (async function* () {
    await new Promise(() => {});
  })();
}

function collect(agent: Agent): AgentEvent[] {
  const events: AgentEvent[] = [];
  agent.subscribe((event) => events.push(event));
  return events;
}

/** An agent that gives up on a stream silent for `idleMs` (20 ms) and retries at once. */
function idleWatchedAgent(provider: Provider, idleMs = 20): Agent {
  return stepAgent({ provider, streamIdleTimeoutMs: idleMs, retry: { baseDelayMs: 1 } });
}

describe('a stalled model stream', () => {
  it('is a retryable network error: retried, never completed with the partial text', async () => {
    const provider = inlineProvider([stallsPolitely, [textDone('The whole answer.')]]);
    const agent = idleWatchedAgent(provider);
    const events = collect(agent);
    const result = await agent.prompt('hi').result();
    const retries = events.flatMap((event) => (event.type === 'retry' ? [event] : []));
    expect(retries.map((event) => [event.error.kind, event.discardedPartial])).toEqual([['network', true]]);
    expect(provider.requests).toHaveLength(2);
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('The whole answer.');
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('ends the run with error once retries and the fallback are spent', async () => {
    const fallback = inlineProvider([stallsPolitely, stallsPolitely], 'backup');
    const agent = stepAgent({
      provider: inlineProvider([stallsPolitely, stallsPolitely]),
      fallbackProvider: fallback,
      streamIdleTimeoutMs: 20,
      retry: { maxRetries: 1, baseDelayMs: 1 },
    });
    const result = await agent.prompt('hi').result();
    expect(fallback.requests).toHaveLength(2);
    expect(result.terminateReason).toBe('error');
    expect(ProviderError.isInstance(result.error) && result.error.kind).toBe('network');
    expect(result.error?.message).toMatch(/streamIdleTimeoutMs/);
    expect(result.messages.map((message) => message.role)).toEqual(['user']);
  });
});

describe('a provider that ignores its abort signal', () => {
  it('agent.abort() settles the run at once and later events are ignored', async () => {
    const log: string[] = [];
    const agent = stepAgent({ provider: inlineProvider([deaf(log)]) });
    const events = collect(agent);
    const run = agent.prompt('hi');
    setTimeout(() => agent.abort(), 10);
    const result = await run.result();
    expect(log).toEqual([]);
    expect(result.terminateReason).toBe('aborted');
    expect(agent.isRunning).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(log).toEqual(['deaf provider yielded']);
    expect(events.at(-1)?.type).toBe('agent_end');
    expect(events.some((event) => event.type === 'text_delta')).toBe(false);
  });

  it('limits.timeoutMs ends the run with timeout', async () => {
    const agent = stepAgent({ provider: inlineProvider([hangsForever]), limits: { timeoutMs: 20 } });
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('timeout');
    expect(agent.isRunning).toBe(false);
  });

  it('the idle timeout gives up on it and retries', async () => {
    const provider = inlineProvider([hangsForever, [textDone('second try')]]);
    const agent = idleWatchedAgent(provider);
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('second try');
  });
});

describe('an error event that carries a plain Error', () => {
  it('reaches result.error as a ProviderError with a code and kind', async () => {
    const agent = stepAgent({
      provider: inlineProvider([[{ type: 'error', error: new Error('socket hang up') as ProviderError }]]),
    });
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('error');
    expect(ProviderError.isInstance(result.error)).toBe(true);
    expect(result.error?.code).toBe('provider_fatal');
    expect(result.error?.message).toMatch(/socket hang up/);
  });

  it('keeps a kind the plain error names', async () => {
    const error = Object.assign(new Error('slow down'), { kind: 'rate_limit' }) as unknown as ProviderError;
    const agent = stepAgent({
      provider: inlineProvider([[{ type: 'error', error }], [textDone('ok')]]),
      retry: { baseDelayMs: 1 },
    });
    const result = await agent.prompt('hi').result();
    expect(result.text).toBe('ok');
  });
});

describe('closing a provider stream', () => {
  it("runs the provider's cleanup once the call has its answer, as for-await would", async () => {
    const log: string[] = [];
    const provider = inlineProvider([
      async function* () {
        try {
          yield textDone('answer');
          log.push('resumed after done');
        } finally {
          log.push('cleaned up');
        }
      },
    ]);
    const agent = stepAgent({ provider });
    await agent.prompt('hi').result();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual(['cleaned up']);
  });
});

describe('a call cut off while it waits for the provider', () => {
  it('goes on to its retry; what the cut-off attempt yields later reaches nobody', async () => {
    const log: string[] = [];
    // The deaf attempt yields while the retry streams (the retry waits for it), so its late events
    // come while the run goes on; a 300 ms idle timeout never mistakes the retry's gaps for a stall.
    let deafYielded: () => void = () => {};
    const heard = new Promise<void>((resolve) => {
      deafYielded = resolve;
    });
    async function* slowRetry(): AsyncGenerator<ModelEvent> {
      for (let index = 0; index < 20; index++) {
        if (index === 1) await heard;
        await new Promise((resolve) => setTimeout(resolve, 5));
        yield { type: 'text_delta', delta: 'wait ' };
      }
      log.push('retry answered');
      yield textDone('second try');
    }
    const provider = inlineProvider([deaf(log, 350, () => deafYielded()), slowRetry]);
    const agent = idleWatchedAgent(provider, 300);
    const events = collect(agent);
    const result = await agent.prompt('hi').result();
    expect(log).toEqual(['deaf provider yielded', 'retry answered']);
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('second try');
    const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
    expect(deltas).toEqual(Array.from({ length: 20 }, () => 'wait '));
    expect(
      events.flatMap((event) =>
        event.type === 'message_end' ? [[event.message.stopReason, event.error?.kind]] : [],
      ),
    ).toEqual([
      ['error', 'network'],
      ['end_turn', undefined],
    ]);
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('ends once when a listener aborts in the middle of a stream that ignores its signal', async () => {
    let yielded = 0;
    const provider = inlineProvider([
      async function* () {
        for (;;) {
          yielded++;
          yield { type: 'text_delta', delta: `part ${yielded} ` };
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      },
    ]);
    const agent = stepAgent({ provider });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => {
      events.push(event);
      if (event.type === 'text_delta' && event.delta === 'part 2 ') agent.abort();
    });
    const result = await agent.prompt('hi').result();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(result.terminateReason).toBe('aborted');
    expect(events.filter((event) => event.type === 'text_delta')).toHaveLength(2);
    expect(events.filter((event) => event.type === 'message_end')).toHaveLength(1);
    const last = result.messages.at(-1);
    expect(last).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'part 1 part 2 ' }],
      stopReason: 'aborted',
    });
  });
});
