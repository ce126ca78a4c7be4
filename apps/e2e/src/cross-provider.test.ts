import { Agent } from '@agent-core/core';
import { checkValidHistory } from '@agent-core/core/testing';
import { calculator } from '@agent-core/test-support';
import { agentic } from '@agent-core/orchestrator-agentic';
import { anthropic } from '@agent-core/provider-anthropic';
import { openai } from '@agent-core/provider-openai';
import { describe, expect, it } from 'vitest';
import {
  anthropicReply,
  chatReply,
  closeServersAfterEach,
  startScriptedSseServer,
} from './test-support/scripted-sse-server.js';

// A conversation with tool calls and thinking, produced through one provider's real SDK and wire
// format, continued through the other's: nothing that cannot travel is sent, nothing is sent malformed.

const closeAfterTest = closeServersAfterEach();

async function server(
  replies: Parameters<typeof startScriptedSseServer>[0],
  basePath: string,
  done?: boolean,
) {
  const started = await startScriptedSseServer(replies, { basePath, done });
  closeAfterTest(started);
  return started;
}

describe('cross-provider continuation', () => {
  it('Anthropic thinking and tool calls continue on OpenAI Chat Completions', async () => {
    const claude = await server(
      [
        anthropicReply({
          thinking: 'Multiply first.',
          signature: 'EqQBsig',
          toolCall: { id: 'toolu_1', name: 'calculator', input: { expression: '15*3' } },
        }),
        anthropicReply({ text: '15*3 is 45.' }),
      ],
      '',
    );
    const first = new Agent({
      provider: anthropic({ baseURL: claude.url, apiKey: 'test' }),
      model: 'claude-sonnet-4-5',
      tools: [calculator],
      orchestrator: agentic(),
    });
    const before = await first.prompt('What is 15*3?').result();
    expect(before.text).toBe('15*3 is 45.');
    expect(before.messages[1]).toMatchObject({
      provider: 'anthropic',
      content: [{ type: 'thinking', signature: 'EqQBsig' }, { type: 'toolCall' }],
    });
    // The signed thinking went back to the same model on the second call.
    expect(JSON.stringify(claude.requests[1]?.messages)).toContain('EqQBsig');

    const gpt = await server([chatReply({ text: 'Plus 5 is 50.' })], '/v1', true);
    const second = new Agent({
      provider: openai({ baseURL: gpt.url, apiKey: 'test' }),
      model: 'gpt-5-mini',
      tools: [calculator],
      orchestrator: agentic(),
      messages: before.messages,
    });
    const after = await second.prompt('And plus 5?').result();
    expect(after.terminateReason).toBe('completed');
    checkValidHistory(after.messages);

    const sent = gpt.requests[0]?.messages as {
      role: string;
      content?: unknown;
      tool_calls?: { id: string }[];
      tool_call_id?: string;
      reasoning_content?: unknown;
    }[];
    expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(sent[1]?.tool_calls?.[0]?.id).toBe('toolu_1');
    expect(sent[2]?.tool_call_id).toBe('toolu_1');
    expect(JSON.stringify(sent)).not.toContain('EqQBsig');
    expect(sent.some((message) => message.reasoning_content !== undefined)).toBe(false);
  });

  it('OpenAI reasoning and tool calls continue on Anthropic Messages', async () => {
    const gpt = await server(
      [
        chatReply({
          reasoning: 'Use the calculator.',
          toolCall: { id: 'call_abc', name: 'calculator', input: { expression: '6*7' } },
        }),
        chatReply({ text: 'It is 42.' }),
      ],
      '/v1',
      true,
    );
    const first = new Agent({
      provider: openai({ baseURL: gpt.url, apiKey: 'test' }),
      model: 'deepseek-reasoner',
      tools: [calculator],
      orchestrator: agentic(),
    });
    const before = await first.prompt('What is 6*7?').result();
    expect(before.text).toBe('It is 42.');
    expect(before.messages[1]).toMatchObject({
      content: expect.arrayContaining([expect.objectContaining({ type: 'thinking' })]),
    });

    const claude = await server([anthropicReply({ text: 'Halved, 21.' })], '');
    const second = new Agent({
      provider: anthropic({ baseURL: claude.url, apiKey: 'test' }),
      model: 'claude-sonnet-4-5',
      tools: [calculator],
      orchestrator: agentic(),
      messages: before.messages,
    });
    const after = await second.prompt('Half of that?').result();
    expect(after.terminateReason).toBe('completed');
    checkValidHistory(after.messages);

    const sent = claude.requests[0]?.messages as {
      role: string;
      content: { type: string; id?: string; tool_use_id?: string }[] | string;
    }[];
    expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    const blocks = sent.flatMap((message) => (typeof message.content === 'string' ? [] : message.content));
    expect(blocks.some((block) => block.type === 'thinking' || block.type === 'redacted_thinking')).toBe(
      false,
    );
    expect(blocks.find((block) => block.type === 'tool_use')?.id).toBe('call_abc');
    expect(blocks.find((block) => block.type === 'tool_result')?.tool_use_id).toBe('call_abc');
  });
});
