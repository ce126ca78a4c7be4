import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  type AgentEventOf,
  type AgentMessage,
  type AgentOptions,
  ConfigError,
  ContextOverflowError,
  ContextWindow,
  type ContextWindowOptions,
  defineTool,
  estimateTokens,
  historyProblems,
  type Message,
  type ModelEvent,
  type ModelRequest,
  type Provider,
  ProviderError,
  isCompactionMessage,
  messageText,
} from '../index.js';
import { inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { stepAgent } from '../test-support/step-agent.js';

// Each result is about 1,000 tokens by the default estimate (4,000 characters).
const read = defineTool({
  name: 'read',
  description: 'reads a file',
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => `${path}:`.padEnd(4_000, 'x'),
});

function reads(count: number, then: ModelEvent[] = [textDone('done')], idPrefix = 'call_') {
  return [
    ...Array.from({ length: count }, (_, index) => [
      toolDone('read', { path: `f${index}` }, `${idPrefix}${index}`),
    ]),
    then,
  ];
}

function overflow(): ModelEvent[] {
  return [
    {
      type: 'error',
      error: new ProviderError({
        kind: 'context_overflow',
        message: 'prompt is too long: 250000 tokens > 200000 maximum',
        status: 400,
      }),
    },
  ];
}

function sentTokens(request: ModelRequest): number {
  let total =
    Math.ceil((request.system ?? '').length / 4) + Math.ceil(JSON.stringify(request.tools ?? '').length / 4);
  if (request.tools === undefined) total = Math.ceil((request.system ?? '').length / 4);
  for (const message of request.messages) total += estimateTokens(message);
  return total;
}

async function runAll(agent: Agent, prompt: string) {
  const run = agent.prompt(prompt);
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return { events, result: await run.result() };
}

function compactions(events: readonly AgentEvent[]): AgentEventOf<'compaction'>[] {
  return events.filter((event): event is AgentEventOf<'compaction'> => event.type === 'compaction');
}

/** An agent with the `read` tool on the step loop and `contextWindow`; `options` add to it. */
function readingAgent(
  provider: Provider,
  contextWindow: ContextWindowOptions,
  options: Partial<AgentOptions> = {},
) {
  return new Agent({
    provider,
    model: 'm',
    tools: [read],
    orchestrator: stepOrchestrator,
    contextWindow,
    ...options,
  });
}

describe('ContextWindow on an agent', () => {
  it('compacts a long tool loop before calls: within budget, valid, prompt kept, full history kept', async () => {
    const provider = inlineProvider(reads(8));
    const agent = readingAgent(provider, { budgetTokens: 3_500 });
    const { events, result } = await runAll(agent, 'Read the files f0 to f7.');
    expect(result.terminateReason).toBe('completed');
    const done = compactions(events);
    expect(done.length).toBeGreaterThan(0);
    for (const event of done) {
      expect(event.reason).toBe('budget');
      expect(event.tokensBefore).toBeGreaterThan(3_500);
      expect(event.tokensAfter).toBeLessThanOrEqual(3_500 * 0.8);
      expect(event.droppedMessages).toBeGreaterThan(0);
      expect(event.summarized).toBe(false);
    }
    for (const request of provider.requests) {
      expect(historyProblems(request.messages)).toEqual([]);
      expect(sentTokens(request)).toBeLessThanOrEqual(3_500);
      expect(request.messages.some((message) => messageText(message) === 'Read the files f0 to f7.')).toBe(
        true,
      );
    }
    const last = provider.requests.at(-1) as ModelRequest;
    expect(messageText(last.messages[0] as Message)).toMatch(
      /earlier messages were removed to fit the context window/,
    );
    // The compaction event comes after the turn starts and before that turn's model call.
    const types = events.map((event) => event.type);
    expect(types[types.indexOf('compaction') - 1]).toBe('turn_start');
    expect(types[types.indexOf('compaction') + 1]).toBe('message_start');

    // The history keeps every message, plus the compaction records.
    const records = result.messages.filter(isCompactionMessage);
    expect(records).toHaveLength(done.length);
    expect(result.messages.filter((message) => message.role === 'toolResult')).toHaveLength(8);
    expect(historyProblems(result.messages)).toEqual([]);
    expect(JSON.parse(JSON.stringify(result.messages))).toEqual(result.messages);
  });

  it('a stored history resumes from its last compaction, and compacts again from there', async () => {
    const first = readingAgent(inlineProvider(reads(8)), { budgetTokens: 3_500 });
    const before = await first.prompt('Read the files.').result();
    const stored = JSON.parse(JSON.stringify(before.messages)) as AgentMessage[];

    // A provider of the next process gives ids of its own, never those of the stored history.
    const provider = inlineProvider(reads(4, undefined, 'next_'));
    const second = readingAgent(provider, { budgetTokens: 3_500 }, { messages: stored });
    const { events, result } = await runAll(second, 'Now read four more.');
    expect(result.terminateReason).toBe('completed');
    const firstRequest = provider.requests[0] as ModelRequest;
    // Starts from the last record: the marker first, and not the early results it dropped.
    expect(messageText(firstRequest.messages[0] as Message)).toMatch(/removed to fit/);
    expect(JSON.stringify(firstRequest.messages)).not.toContain('f0:');
    expect(compactions(events).length).toBeGreaterThan(0);
    for (const request of provider.requests) {
      expect(historyProblems(request.messages)).toEqual([]);
      expect(sentTokens(request)).toBeLessThanOrEqual(3_500);
    }
    // The dropped count goes on from the stored record.
    const records = result.messages.filter(isCompactionMessage);
    expect(records.at(-1)?.droppedMessages).toBeGreaterThan(records[0]?.droppedMessages ?? 0);
  });

  it('never drops a pinned message', async () => {
    const provider = inlineProvider(reads(8));
    const agent = readingAgent(
      provider,
      { budgetTokens: 3_500, pinned: (_message, index) => index === 0 },
      { messages: [{ role: 'user', content: 'Project rule: answer in French.' }] },
    );
    const { events } = await runAll(agent, 'Read the files.');
    expect(compactions(events).length).toBeGreaterThan(0);
    for (const request of provider.requests) {
      expect(request.messages.map((message) => messageText(message))).toContain(
        'Project rule: answer in French.',
      );
    }
  });

  it('ends the run with ContextOverflowError, and sends nothing, when one message cannot fit', async () => {
    const provider = inlineProvider([[textDone('never')]]);
    const agent = stepAgent({ provider, contextWindow: { budgetTokens: 1_000 } });
    const result = await agent.prompt('y'.repeat(8_000)).result();
    expect(result.terminateReason).toBe('error');
    expect(result.error).toBeInstanceOf(ContextOverflowError);
    expect(result.error?.message).toMatch(/2000 tokens, over the budget of 1000/);
    expect(provider.requests).toHaveLength(0);
  });

  it('on a provider overflow compacts once, retries once and succeeds', async () => {
    const provider = inlineProvider([...reads(3, overflow()), [textDone('done')]]);
    const agent = readingAgent(provider, { budgetTokens: 100_000 });
    const { events, result } = await runAll(agent, 'Read three files.');
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('done');
    expect(provider.requests).toHaveLength(5);
    const [compaction, ...others] = compactions(events);
    expect(others).toEqual([]);
    expect(compaction?.reason).toBe('overflow');
    const types = events.map((event) => event.type);
    expect(types.slice(types.indexOf('compaction'), types.indexOf('compaction') + 2)).toEqual([
      'compaction',
      'retry',
    ]);
    const [refused, retried] = provider.requests.slice(3) as [ModelRequest, ModelRequest];
    expect(sentTokens(retried)).toBeLessThan(sentTokens(refused));
    expect(historyProblems(retried.messages)).toEqual([]);
  });

  it('a second overflow ends the run with a clear error, never a loop', async () => {
    const provider = inlineProvider([...reads(3, overflow()), overflow(), [textDone('never')]]);
    const agent = readingAgent(provider, { budgetTokens: 100_000 });
    const { events, result } = await runAll(agent, 'Read three files.');
    expect(result.terminateReason).toBe('error');
    expect(result.error).toBeInstanceOf(ContextOverflowError);
    expect(result.error?.message).toMatch(/still refused .* after one compaction/);
    expect(provider.requests).toHaveLength(5);
    expect(compactions(events)).toHaveLength(1);
    expect(historyProblems(result.messages)).toEqual([]);
  });

  it('without a context window an overflow ends the run at once and says how to compact', async () => {
    const provider = inlineProvider([overflow(), [textDone('never')]]);
    const agent = stepAgent({ provider });
    const result = await agent.prompt('hello').result();
    expect(result.error).toBeInstanceOf(ContextOverflowError);
    expect(result.error?.message).toMatch(/Set contextWindow/);
    expect(provider.requests).toHaveLength(1);
  });

  it('sends a summary from the summarize hook, and the marker when the hook fails', async () => {
    const seen: AgentMessage[][] = [];
    const provider = inlineProvider(reads(8));
    const agent = stepAgent({
      provider,
      tools: [read],
      contextWindow: {
        budgetTokens: 3_500,
        summarize: async (messages) => {
          seen.push([...messages]);
          if (seen.length === 2) throw new Error('summary service down');
          return `read ${messages.length} things`;
        },
      },
    });
    const { events } = await runAll(agent, 'Read the files.');
    const done = compactions(events);
    expect(done.length).toBeGreaterThanOrEqual(2);
    expect(done[0]?.summarized).toBe(true);
    expect(messageText(done[0]?.message as never)).toContain(`read ${seen[0]?.length} things`);
    expect(done[1]?.summarized).toBe(false);
    // The hook gets whole groups: every dropped tool result comes with its call.
    expect(historyProblems(seen[0] as AgentMessage[])).toEqual([]);
  });

  it('asks the provider for exact counts when exactCounts is set', async () => {
    const counted: ModelRequest[] = [];
    // The provider counts twice what the estimate does: the estimate alone would send it all.
    const provider = Object.assign(inlineProvider([[textDone('ok')]]), {
      countTokens: async (request: ModelRequest) => {
        counted.push(request);
        return 2 * request.messages.reduce((sum, message) => sum + estimateTokens(message), 0);
      },
    });
    const agent = stepAgent({
      provider,
      messages: [
        { role: 'user', content: 'old question '.padEnd(400, '.') },
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'old answer '.padEnd(400, '.') }],
          stopReason: 'end_turn',
        },
      ],
      contextWindow: { budgetTokens: 500, exactCounts: true },
    });
    const { events } = await runAll(agent, 'new question '.padEnd(400, '.'));
    const [compaction] = compactions(events);
    expect(counted).toHaveLength(1);
    expect(compaction?.tokensBefore).toBe(600);
    expect(compaction?.tokensAfter).toBeLessThanOrEqual(400);
    expect(provider.requests[0]?.messages.map((message) => messageText(message).slice(0, 12))).toEqual([
      '[2 earlier m',
      'new question',
    ]);
  });

  it('takes its default budget from modelInfo less the output reserve, and refuses an unknown one', () => {
    const provider = Object.assign(inlineProvider([]), {
      modelInfo: (model: string) =>
        model === 'known' ? { contextWindow: 10_000, maxOutputTokens: 2_000 } : undefined,
    });
    const window = new ContextWindow();
    expect(window.budgetFor(provider, 'known', undefined)).toBe(8_000);
    expect(window.budgetFor(provider, 'known', 500)).toBe(9_500);
    expect(() => new Agent({ provider, model: 'other', contextWindow: {} })).toThrow(ConfigError);
    expect(() => new Agent({ provider, model: 'other', contextWindow: {} })).toThrow(/needs budgetTokens/);
    expect(() => new Agent({ provider, model: 'known', contextWindow: { targetRatio: 1.5 } })).toThrow(
      /targetRatio must be/,
    );
  });
});
