import { type AgentMessage, isModelMessage, type Message } from '@agent-core/core';
import { checkValidHistory } from '@agent-core/core/testing';
import { calculator } from '@agent-core/test-support';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { action, final } from './test-support/history.js';
import { reactAgent } from './test-support/react-agent.js';

declare module '@agent-core/core' {
  interface CustomAgentMessages {
    reminder: { role: 'reminder'; text: string };
  }
}

const reminder: AgentMessage = { role: 'reminder', text: 'Answer in French.' };

describe('react: the model sees the history through convertToLlm, as with agentic', () => {
  it("applies the agent's convertToLlm before the ReAct transcript", async () => {
    const provider = mock({
      turns: [
        { text: action('Compute it.', 'calculator', { expression: '2+2' }) },
        { text: final('Done.', 'quatre') },
      ],
    });
    const convertToLlm = (messages: readonly AgentMessage[]): Message[] =>
      messages.flatMap((message): Message[] => {
        if (message.role === 'reminder') return [{ role: 'user', content: `(reminder) ${message.text}` }];
        return isModelMessage(message) ? [message] : [];
      });
    const agent = reactAgent({ provider, tools: [calculator], convertToLlm, messages: [reminder] });
    const result = await agent.prompt('What is 2+2?').result();
    expect(result.text).toBe('quatre');
    const [first, second] = provider.requests;
    expect(first?.messages).toEqual([
      { role: 'user', content: '(reminder) Answer in French.' },
      { role: 'user', content: 'What is 2+2?' },
    ]);
    expect(second?.messages[0]).toEqual({ role: 'user', content: '(reminder) Answer in French.' });
    expect(second?.messages.at(-1)).toEqual({ role: 'user', content: 'Observation: 4' });
    expect(result.messages[0]).toBe(reminder);
    checkValidHistory(result.messages);
  });

  it('leaves app-defined messages out when there is no convertToLlm', async () => {
    const provider = mock({ turns: [{ text: final('Sure.', 'four') }] });
    const agent = reactAgent({ provider, tools: [calculator], messages: [reminder] });
    await agent.prompt('What is 2+2?').result();
    expect(provider.requests[0]?.messages).toEqual([{ role: 'user', content: 'What is 2+2?' }]);
  });
});
