import { describe, expect, it } from 'vitest';
import {
  Agent,
  type AgentEvent,
  ContextWindow,
  type Message,
  type ModelEvent,
  type ModelRequest,
  estimateTokens,
  type Provider,
  ProviderError,
  type ProviderErrorOptions,
} from '../index.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { budgetAfterOverflow } from './budget-after-overflow.js';

// A backend that refuses any request over `limit` of its own tokens, in a real refusal's words.
// Its tokenizer counts a token every three characters by default: a third more than the window's
// default estimate (ceil(chars / 4)), as real tokenizers often do on code and numbers.
function limitedBackend(
  limit: number,
  refusal: (tokens: number) => ProviderError,
  charactersPerToken = 3,
  name = 'backend',
) {
  const seen: { tokens: number; refused: boolean }[] = [];
  const count = (request: ModelRequest) => {
    let characters = (request.system ?? '').length;
    for (const message of request.messages)
      characters +=
        typeof message.content === 'string' ? message.content.length : JSON.stringify(message.content).length;
    return Math.ceil(characters / charactersPerToken);
  };
  const provider: Provider = {
    name,
    async *stream(request): AsyncGenerator<ModelEvent> {
      const tokens = count(request);
      const refused = tokens > limit;
      seen.push({ tokens, refused });
      if (refused) {
        yield { type: 'error', error: refusal(tokens) };
        return;
      }
      yield {
        type: 'done',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: 'Noted.' }],
          stopReason: 'end_turn',
          provider: name,
          model: request.model,
          usage: { input: tokens, output: 2, cacheRead: 0, cacheWrite: 0 },
        },
      };
    },
  };
  return { provider, seen };
}

const anthropicRefusal = (limit: number) => (tokens: number) =>
  new ProviderError({
    kind: 'context_overflow',
    message: `prompt is too long: ${tokens} tokens > ${limit} maximum`,
    status: 400,
    provider: 'backend',
  });

// Each prompt is about 300 of the backend's tokens.
const prompt = (turn: number) => `Turn ${turn}: ${'note '.repeat(180)}`;

async function converse(agent: Agent, turns: number) {
  const events: AgentEvent[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const run = agent.prompt(prompt(turn));
    for await (const event of run) events.push(event);
    expect((await run.result()).terminateReason).toBe('completed');
  }
  return events;
}

describe('a context window learns from a refusal', () => {
  it('the first overflow costs one refused request; later turns compact before sending', async () => {
    const { provider, seen } = limitedBackend(2_000, anthropicRefusal(2_000));
    const agent = new Agent({
      provider,
      model: 'small',
      orchestrator: stepOrchestrator,
      // Far more than the backend really takes.
      contextWindow: { budgetTokens: 1_000_000 },
    });
    const events = await converse(agent, 16);

    expect(seen.filter((request) => request.refused)).toHaveLength(1);
    expect(seen).toHaveLength(16 + 1);
    const reasons = events.flatMap((event) => (event.type === 'compaction' ? [event.reason] : []));
    expect(reasons[0]).toBe('overflow');
    expect(reasons.slice(1).length).toBeGreaterThan(0);
    expect(reasons.slice(1).every((reason) => reason === 'budget')).toBe(true);
    // Every request after the refusal fits the backend.
    expect(
      Math.max(...seen.slice(seen.findIndex((request) => request.refused) + 1).map((r) => r.tokens)),
    ).toBeLessThanOrEqual(2_000);
  });

  it('a refusal that names no limit teaches the largest request the backend accepted', async () => {
    const { provider, seen } = limitedBackend(
      2_000,
      () =>
        new ProviderError({
          kind: 'context_overflow',
          message:
            'Your input exceeds the context window of this model. Please adjust your input and try again.',
          status: 400,
          provider: 'backend',
        }),
    );
    const window = new ContextWindow({ budgetTokens: 1_000_000 });
    const sent: ModelRequest[] = [];
    const recording: Provider = {
      name: provider.name,
      stream(request, options) {
        sent.push({ ...request, messages: request.messages.slice() });
        return provider.stream(request, options);
      },
    };
    const agent = new Agent({
      provider: recording,
      model: 'small',
      orchestrator: stepOrchestrator,
      contextWindow: window,
    });
    const events = await converse(agent, 16);
    const refusedAt = seen.findIndex((request) => request.refused);
    expect(refusedAt).toBeGreaterThan(0);
    expect(seen.filter((request) => request.refused)).toHaveLength(1);
    // The window's own count of the last request accepted before the refusal.
    const accepted = sent[refusedAt - 1] as ModelRequest;
    const counted = accepted.messages.reduce((total, message) => total + estimateTokens(message), 0);
    expect(window.learnedBudget('backend', 'small')).toBe(counted);
    expect(events.filter((event) => event.type === 'compaction').length).toBeGreaterThan(1);
  });
});

describe('ContextWindow.learnBudget', () => {
  const provider: Provider = { name: 'p', async *stream() {} };

  it('lowers the budget of one provider model for good, never raises it, and leaves others alone', () => {
    const window = new ContextWindow({ budgetTokens: 10_000 });
    expect(window.learnedBudget('p', 'a')).toBeUndefined();
    expect(window.budgetFor(provider, 'a', undefined)).toBe(10_000);
    expect(window.learnBudget('p', 'a', 4_000.7)).toBe(4_000);
    expect(window.budgetFor(provider, 'a', undefined)).toBe(4_000);
    expect(window.learnBudget('p', 'a', 6_000)).toBe(4_000);
    expect(window.budgetFor(provider, 'a', undefined)).toBe(4_000);
    expect(window.budgetFor(provider, 'b', undefined)).toBe(10_000);
    expect(window.budgetFor({ ...provider, name: 'q' }, 'a', undefined)).toBe(10_000);
    // A learned budget above the configured one changes nothing.
    window.learnBudget('p', 'c', 50_000);
    expect(window.budgetFor(provider, 'c', undefined)).toBe(10_000);
  });
});

describe('budgetAfterOverflow', () => {
  const window = new ContextWindow({ budgetTokens: 100_000 });
  const answer = (provider: string, text: string): Message => ({
    role: 'assistant',
    content: [{ type: 'text', text }],
    stopReason: 'end_turn',
    provider,
    model: 'm',
  });
  const facts = (error: ProviderError, history: Message[] = []) => ({
    error,
    measured: 1_500,
    scale: 1,
    maxOutputTokens: undefined,
    view: window.sync(history),
    overhead: 10,
    provider: 'p',
    model: 'm',
  });
  const refusal = (message: string, fields: Partial<ProviderErrorOptions> = {}) =>
    new ProviderError({ kind: 'context_overflow', message, ...fields });

  it('the named limit, scaled by how the provider and the window counted the refused request', () => {
    // The provider counted 2,000 where the window counted 1,500: the window's budget is 3/4 of the limit.
    expect(budgetAfterOverflow(facts(refusal('prompt is too long: 2000 tokens > 1600 maximum')))).toBe(1_200);
  });

  it('less the output the request reserved, when the refusal counts it', () => {
    const error = refusal(
      "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens (4096 in the messages, 1024 in the completion).",
    );
    expect(budgetAfterOverflow({ ...facts(error), measured: 4_096 })).toBe(3_072);
    const stated = refusal('the request exceeds the available context size', { contextLimit: 4096 });
    expect(budgetAfterOverflow({ ...facts(stated), maxOutputTokens: 1_000 })).toBe(3_096);
  });

  it('without a named limit: what was sent before the latest answer of that provider model', () => {
    const error = refusal('Your input exceeds the context window of this model.');
    const history: Message[] = [
      { role: 'user', content: 'x'.repeat(400) },
      answer('p', 'y'.repeat(40)),
      { role: 'user', content: 'z'.repeat(800) },
      answer('p', 'w'.repeat(400)),
      { role: 'user', content: 'v'.repeat(40) },
      answer('other', 'u'.repeat(40)),
      { role: 'user', content: 't'.repeat(40) },
    ];
    // The overhead, the first user message and its answer, the second user message: 10 + 100 + 10 + 200.
    expect(budgetAfterOverflow(facts(error, history))).toBe(320);
    expect(budgetAfterOverflow({ ...facts(error, history), scale: 2 })).toBe(640);
    // Nothing accepted in view: at least never as large as the refused request again.
    expect(budgetAfterOverflow(facts(error, [{ role: 'user', content: 'hello' }]))).toBe(1_499);
  });
});
