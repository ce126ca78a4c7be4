import { Agent, type AgentEvent } from '@agent-core/core';
import { checkValidHistory } from '@agent-core/core/testing';
import { calculator } from '@agent-core/test-support';
import { react } from '@agent-core/orchestrator-react';
import { openai } from '@agent-core/provider-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReactChatServer, startReactChatServer } from './test-support/react-chat-server.js';

// ReAct through the real OpenAI SDK against a local Chat Completions server whose model has no
// native tool calling: it ignores `tools` and answers in ReAct text. The agent still uses its tools.

let server: ReactChatServer;

beforeAll(async () => {
  server = await startReactChatServer();
});

afterAll(async () => {
  await server.close();
});

describe('react over provider-openai (Chat Completions SSE, no native tools)', () => {
  it('uses the calculator twice from ReAct text and streams the final answer', async () => {
    const agent = new Agent({
      provider: openai({ baseURL: server.url, apiKey: 'test-key' }),
      model: 'local-react-model',
      systemPrompt: 'You are a careful calculator assistant.',
      tools: [calculator],
      orchestrator: react(),
    });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const first = server.requests.length;
    const result = await agent.prompt('What is 15*3 plus 10?').result();

    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('The result is 55.');
    expect(result.toolCalls.map((call) => [call.name, call.input, call.result, call.isError])).toEqual([
      ['calculator', { expression: '15*3' }, '45', false],
      ['calculator', { expression: '45+10' }, '55', false],
    ]);
    expect(result.usage.input).toBe(150);
    checkValidHistory(result.messages);

    const requests = server.requests.slice(first);
    expect(requests).toHaveLength(3);
    for (const request of requests) {
      expect(request.stream).toBe(true);
      expect(request.tools).toBeUndefined();
      expect(request.stop).toEqual(['\nObservation:']);
    }
    const system = requests[0]?.messages[0];
    expect(system?.role).toMatch(/^(system|developer)$/);
    expect(String(system?.content)).toMatch(
      /^You are a careful calculator assistant\.\n\n# Tools and reply format/,
    );
    // The observations went back as text, and the invented ones never reached the model.
    const last = JSON.stringify(requests[2]?.messages);
    expect(last).toContain('Observation: 45');
    expect(last).toContain('Observation: 55');
    expect(last).not.toContain('12345');
    expect(last).not.toContain('made up');

    const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
    expect(text.join('')).toBe('The result is 55.');
    const thinking = events.flatMap((event) => (event.type === 'thinking_delta' ? [event.delta] : []));
    expect(thinking.join('')).toBe('First I multiply 15 by 3.Now I add 10 to 45.I know the answer now.');
    expect(events.filter((event) => event.type === 'tool_call_end')).toHaveLength(2);
  });

  it('still works with a server that ignores stop sequences: invented observations are cut off', async () => {
    const careless = await startReactChatServer({ honourStop: false });
    try {
      const agent = new Agent({
        provider: openai({ baseURL: careless.url, apiKey: 'test-key' }),
        model: 'local-react-model',
        tools: [calculator],
        orchestrator: react(),
      });
      const result = await agent.prompt('What is 6*7 plus 8?').result();
      expect(result.text).toBe('The result is 50.');
      expect(result.toolCalls.map((call) => call.result)).toEqual(['42', '50']);
      const sent = JSON.stringify(careless.requests.at(-1)?.messages);
      expect(sent).not.toContain('12345');
      expect(sent).not.toContain('made up');
    } finally {
      await careless.close();
    }
  });
});
