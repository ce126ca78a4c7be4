import { Agent, type AgentEvent, defineTool } from '@agent-core/core';
import { checkValidHistory } from '@agent-core/core/testing';
import { agentic } from '@agent-core/orchestrator-agentic';
import { anthropic } from '@agent-core/provider-anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anthropicReply,
  type ScriptedSseServer,
  type SseFrame,
  startScriptedSseServer,
} from './test-support/scripted-sse-server.js';

// Anthropic's event order for a reply cut by its output limit: the tool block
// stops with incomplete arguments, and only the message_delta after it says
// `max_tokens`. The loop must answer the half call, never run it, never retry it.

let server: ScriptedSseServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function cutReply(): SseFrame[] {
  const frame = (event: string, data: object): SseFrame => ({ event, data: { type: event, ...data } });
  return [
    frame('message_start', {
      message: {
        id: 'msg_cut',
        type: 'message',
        role: 'assistant',
        content: [],
        model: 'claude-sonnet-4-5',
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 30, output_tokens: 1 },
      },
    }),
    frame('content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_cut', name: 'write_file', input: {} },
    }),
    frame('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{' } }),
    frame('content_block_stop', { index: 0 }),
    frame('message_delta', {
      delta: { stop_reason: 'max_tokens', stop_sequence: null },
      usage: { output_tokens: 64 },
    }),
    frame('message_stop', {}),
  ];
}

describe('a tool call cut by the output limit, through provider-anthropic', () => {
  it('is answered with an error naming the limit, never run and never retried', async () => {
    server = await startScriptedSseServer(
      [cutReply(), anthropicReply({ text: 'I will write it in parts.' })],
      {
        basePath: '',
      },
    );
    const written: unknown[] = [];
    const writeFile = defineTool({
      name: 'write_file',
      description: 'Writes a file.',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' }, content: { type: 'string' } },
        required: ['path', 'content'],
      },
      execute: (input) => {
        written.push(input);
        return 'written';
      },
    });
    const agent = new Agent({
      provider: anthropic({ baseURL: server.url, apiKey: 'test' }),
      model: 'claude-sonnet-4-5',
      tools: [writeFile],
      orchestrator: agentic(),
      retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 },
    });
    const run = agent.prompt('Write a long file.');
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result();

    expect(events.filter((event) => event.type === 'retry')).toEqual([]);
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
    expect(written).toEqual([]);
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('I will write it in parts.');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ id: 'toolu_cut', name: 'write_file', isError: true });
    expect(String(result.toolCalls[0]?.result)).toContain('output token limit');
    checkValidHistory(result.messages);

    // One request per turn: the cut reply was not sent again; the second turn carries the error result.
    expect(server.requests).toHaveLength(2);
    const second = server.requests[1]?.messages as { role: string; content: { type: string }[] }[];
    expect(second[1]?.content).toEqual([
      { type: 'tool_use', id: 'toolu_cut', name: 'write_file', input: {} },
    ]);
    expect(second[2]?.content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_cut',
      is_error: true,
    });
  });
});
