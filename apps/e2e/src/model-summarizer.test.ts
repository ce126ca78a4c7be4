import { Agent, isCompactionMessage, messageText, modelSummarizer } from '@agent-core/core';
import { checkValidHistory } from '@agent-core/core/testing';
import { calculator } from '@agent-core/test-support';
import { agentic } from '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';

describe('modelSummarizer with provider-mock', () => {
  it('the summary request offers no tools, and the agent sends the summary in place of what it dropped', async () => {
    const long = 'numbers '.repeat(300);
    const provider = mock({
      turns: [
        { toolCalls: [{ name: 'calculator', input: { expression: '15*3' } }] },
        { toolCalls: [{ name: 'calculator', input: { expression: '10+5' } }] },
        { text: 'Both done.' },
      ],
    });
    const summarizer = mock({ turns: [{ text: 'Earlier the user asked about long lists of numbers.' }] });
    const agent = new Agent({
      provider,
      model: 'mock-model',
      tools: [calculator],
      orchestrator: agentic(),
      messages: [
        { role: 'user', content: `First: ${long}` },
        { role: 'assistant', content: [{ type: 'text', text: `Noted: ${long}` }], stopReason: 'end_turn' },
      ],
      contextWindow: { budgetTokens: 700, summarize: modelSummarizer(summarizer, 'mock-model') },
    });
    const result = await agent.prompt('Compute 15*3 and 10+5.').result();
    expect(result.terminateReason).toBe('completed');

    expect(summarizer.requests).toHaveLength(1);
    const [summaryRequest] = summarizer.requests;
    expect(summaryRequest?.tools).toBeUndefined();
    expect(summaryRequest?.toolChoice).toBeUndefined();
    expect(summaryRequest?.model).toBe('mock-model');
    expect(messageText(summaryRequest?.messages[0] as never)).toContain('User: First: numbers');

    // Every agent request offered the calculator; the first already carried the summary, not the long exchange.
    for (const request of provider.requests)
      expect(request.tools?.map((tool) => tool.name)).toEqual(['calculator']);
    const first = provider.requests[0]?.messages ?? [];
    expect(messageText(first[0] as never)).toContain('Earlier the user asked about long lists of numbers.');
    expect(JSON.stringify(first)).not.toContain('Noted:');
    expect(result.messages.filter(isCompactionMessage)).toMatchObject([
      { summarized: true, droppedMessages: 2 },
    ]);
    checkValidHistory(result.messages);
  });
});
