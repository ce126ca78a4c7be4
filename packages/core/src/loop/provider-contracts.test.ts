import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AssistantMessage,
  defineTool,
  historyProblems,
  type LogFields,
  type Logger,
  type ModelEvent,
  type ModelRequest,
  type Provider,
  type TextBlock,
} from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';
import { stepAgent } from '../test-support/step-agent.js';

// Each mistake a provider makes by accident, made on purpose: the agent's history stays as it
// was, and nothing the model did is dropped or renamed without a word.

const echo = defineTool({
  name: 'echo',
  description: 'echoes',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

/** A provider that does `edit` to each request before answering `text`. */
function editing(edit: (request: ModelRequest) => void): Provider {
  return {
    name: 'editing',
    async *stream(request) {
      edit(request);
      yield textDone('ok');
    },
  };
}

function warnings(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record = (message: string, fields?: LogFields) =>
    lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  return { lines, debug() {}, info() {}, warn: record, error: record };
}

describe('a provider cannot change the history it is sent', () => {
  it("one that upper-cases the request's text in place fails with a clear error; the history keeps 'hello there'", async () => {
    const provider = editing((request) => {
      for (const message of request.messages)
        if (typeof message.content === 'string')
          (message as { content: string }).content = message.content.toUpperCase();
    });
    const agent = stepAgent({ provider, retry: { maxRetries: 0 } });
    const result = await agent.prompt('hello there').result();
    expect(agent.messages[0]).toEqual({ role: 'user', content: 'hello there' });
    expect(result.terminateReason).toBe('error');
    expect(result.error?.message).toMatch(/changed its request in place.*copy what you change/);
  });

  it('one that edits a content block of an earlier reply leaves the stored reply as it was', async () => {
    const provider = inlineProvider([
      [textDone('first answer')],
      async function* (request) {
        const earlier = request.messages[1] as AssistantMessage;
        try {
          (earlier.content[0] as TextBlock).text = 'rewritten';
        } catch {
          // A provider that catches its own failure goes on with what it was sent.
        }
        yield textDone('second answer');
      },
    ]);
    const agent = stepAgent({ provider });
    await agent.prompt('one').result();
    await agent.prompt('two').result();
    expect((agent.messages[1] as AssistantMessage).content).toEqual([{ type: 'text', text: 'first answer' }]);
  });

  it('one that reorders, empties or extends the message list fails with a clear error; the history keeps its order', async () => {
    const editors = [
      (messages: unknown[]) => messages.reverse(),
      (messages: unknown[]) => messages.push({ role: 'user', content: 'injected' }),
      (messages: unknown[]) => {
        messages.length = 0;
      },
    ];
    for (const edit of editors) {
      const provider = editing((request) => edit(request.messages as unknown[]));
      const agent = stepAgent({
        provider,
        retry: { maxRetries: 0 },
        messages: [
          { role: 'user', content: 'before' },
          { role: 'assistant', content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn' },
        ],
      });
      const result = await agent.prompt('one').result();
      expect(result.terminateReason).toBe('error');
      expect(result.error?.message).toMatch(
        /changed its request's message list in place.*copies what it changes/s,
      );
      expect(agent.messages.map((message) => (message as { role: string }).role)).toEqual([
        'user',
        'assistant',
        'user',
      ]);
    }
  });
});

describe('a provider that hands back frozen replies', () => {
  it('one that reuses a frozen reply (usage priced by core, a call without an id) gets copies: each joins the history whole', async () => {
    const reply: AssistantMessage = Object.freeze({
      role: 'assistant',
      content: Object.freeze([
        Object.freeze({
          type: 'toolCall' as const,
          id: '',
          name: 'echo',
          input: Object.freeze({ text: 'hi' }),
        }),
      ]),
      stopReason: 'tool_use',
      usage: Object.freeze({ input: 10, output: 5, cacheRead: 0, cacheWrite: 0 }),
    }) as unknown as AssistantMessage;
    const final: AssistantMessage = Object.freeze({
      role: 'assistant',
      content: Object.freeze([Object.freeze({ type: 'text' as const, text: 'done' })]),
      stopReason: 'end_turn',
    }) as unknown as AssistantMessage;
    let calls = 0;
    const provider: Provider = {
      name: 'frozen',
      modelInfo: () => ({ contextWindow: 1000, maxOutputTokens: 100, pricing: { input: 1, output: 2 } }),
      async *stream() {
        calls++;
        yield { type: 'done', message: calls % 2 === 1 ? reply : final };
      },
    };
    const agent = stepAgent({ provider, tools: [echo] });
    for (const prompt of ['one', 'two']) {
      const result = await agent.prompt(prompt).result();
      expect(result.terminateReason).toBe('completed');
      expect(result.toolCalls.map((call) => call.result)).toEqual(['hi']);
    }
    const replies = agent.messages.filter(
      (message): message is AssistantMessage => (message as { role: string }).role === 'assistant',
    );
    expect(replies.map((message) => message.provider)).toEqual(['frozen', 'frozen', 'frozen', 'frozen']);
    expect(replies[0]?.usage?.cost).toBeGreaterThan(0);
    expect(reply.usage?.cost).toBeUndefined();
    expect(reply.content[0]).toMatchObject({ id: '' });
    expect(historyProblems(agent.messages)).toEqual([]);
  });
});

describe('tool calls a provider streams', () => {
  function deltasOnly(done: AssistantMessage, ...events: ModelEvent[]): ModelEvent[] {
    return [...events, { type: 'done', message: done }];
  }

  it('a call streamed only as deltas, missing from the done message, is run, and the provider is warned about', async () => {
    const logger = warnings();
    const provider = inlineProvider([
      deltasOnly(
        { role: 'assistant', content: [{ type: 'text', text: 'Let me echo.' }], stopReason: 'end_turn' },
        { type: 'text_delta', delta: 'Let me echo.' },
        { type: 'toolcall_start', id: 'streamed_1', name: 'echo' },
        { type: 'toolcall_delta', id: 'streamed_1', delta: '{"text":' },
        { type: 'toolcall_delta', id: 'streamed_1', delta: '"hi"}' },
      ),
      [textDone('done')],
    ]);
    const agent = stepAgent({ provider, tools: [echo], logger });
    const result = await agent.prompt('go').result();
    expect(result.toolCalls.map((call) => [call.id, call.result, call.isError])).toEqual([
      ['streamed_1', 'hi', false],
    ]);
    expect((agent.messages[1] as AssistantMessage).stopReason).toBe('tool_use');
    expect(logger.lines.join('\n')).toMatch(/streamed tool calls its final message lacks.*streamed_1/);
    expect(historyProblems(agent.messages)).toEqual([]);
  });

  it("a call whose toolcall_end came but the done message lacks is run with the end's input", async () => {
    const provider = inlineProvider([
      deltasOnly(
        { role: 'assistant', content: [], stopReason: 'tool_use' },
        { type: 'toolcall_start', id: 'ended_1', name: 'echo' },
        {
          type: 'toolcall_end',
          toolCall: { type: 'toolCall', id: 'ended_1', name: 'echo', input: { text: 'from the end' } },
        },
      ),
      [textDone('done')],
    ]);
    const agent = stepAgent({ provider, tools: [echo] });
    const result = await agent.prompt('go').result();
    expect(result.toolCalls.map((call) => call.result)).toEqual(['from the end']);
  });

  it('a streamed call whose arguments never became whole JSON gets an error result saying so, and is never run', async () => {
    const provider = inlineProvider([
      deltasOnly(
        { role: 'assistant', content: [], stopReason: 'tool_use' },
        { type: 'toolcall_start', id: 'cut_1', name: 'echo' },
        { type: 'toolcall_delta', id: 'cut_1', delta: '{"text": "unfinish' },
      ),
      [textDone('done')],
    ]);
    const agent = stepAgent({ provider, tools: [echo] });
    const result = await agent.prompt('go').result();
    expect(result.toolCalls[0]?.isError).toBe(true);
    expect(result.toolCalls[0]?.result).toMatch(/was not run: its streamed arguments are not complete JSON/);
    expect(historyProblems(agent.messages)).toEqual([]);
  });
});
