import { describe, expect, it } from 'vitest';
import { Agent, type AgentMessage, isModelMessage, type Message, type Orchestrator } from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';

declare module '../messages/messages.js' {
  interface CustomAgentMessages {
    note: { role: 'note'; text: string };
  }
}

/** Makes two calls and records what modelMessages() gave before each. */
function recording(views: (readonly Message[])[], live: (readonly Message[])[] = []): Orchestrator {
  return {
    name: 'recording',
    async run(ctx) {
      for (let call = 0; call < 2; call++) {
        if (ctx.nextTurn() !== undefined) break;
        const before = ctx.modelMessages();
        // A copy: the view itself grows with the history.
        views.push([...before]);
        live.push(before);
        expect(ctx.modelMessages()).toBe(before);
        const response = await ctx.callModel({
          messages: [...before, { role: 'user', content: `extra ${call}` }],
        });
        if (!response.ok) return { reason: response.reason, error: response.error };
        ctx.endTurn(response.message);
      }
      return { reason: 'completed' };
    },
  };
}

describe('ctx.modelMessages()', () => {
  it('applies convertToLlm once per history change and is what callModel sends by default', async () => {
    let conversions = 0;
    const convertToLlm = (messages: readonly AgentMessage[]): Message[] => {
      conversions++;
      return messages.flatMap((message): Message[] => {
        if (message.role === 'note') return [{ role: 'user', content: `(note) ${message.text}` }];
        return isModelMessage(message) ? [message] : [];
      });
    };
    const views: (readonly Message[])[] = [];
    const provider = inlineProvider([[textDone('one')], [textDone('two')]]);
    const agent = new Agent({
      provider,
      model: 'm',
      convertToLlm,
      orchestrator: recording(views),
      messages: [{ role: 'note', text: 'be kind' }],
    });
    await agent.prompt('hi').result();
    expect(views[0]).toEqual([
      { role: 'user', content: '(note) be kind' },
      { role: 'user', content: 'hi' },
    ]);
    expect(views[1]?.at(-1)).toMatchObject({ role: 'assistant' });
    expect(conversions).toBe(2);
    expect(provider.requests[0]?.messages.at(-1)).toEqual({ role: 'user', content: 'extra 0' });
  });

  it('leaves app-defined messages out when there is no convertToLlm, and is the live history when there are none', async () => {
    const views: (readonly Message[])[] = [];
    const agent = new Agent({
      provider: inlineProvider([[textDone('one')], [textDone('two')]]),
      model: 'm',
      orchestrator: recording(views),
      messages: [{ role: 'note', text: 'private' }],
    });
    await agent.prompt('hi').result();
    expect(views[0]).toEqual([{ role: 'user', content: 'hi' }]);
    expect(views[1]?.map((message) => message.role)).toEqual(['user', 'assistant']);

    const live: (readonly Message[])[] = [];
    const plain = new Agent({
      provider: inlineProvider([[textDone('one')], [textDone('two')]]),
      model: 'm',
      orchestrator: recording([], live),
    });
    await plain.prompt('hi').result();
    // The run's copy of the history: it grows with it, and a change to it never reaches the history.
    expect(live[0]).toEqual(plain.messages);
    expect(live[0]?.length).toBe(plain.messages.length);
    (live[0] as Message[]).push({ role: 'user', content: 'sneaked in' });
    expect(plain.messages.length).toBe(3);
  });
});
