import { Agent, defineTool } from '@agent-core/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSdk } from '../load-sdk.js';
import { openai } from '../openai.js';
import { fixtureEvents, responsesEvent, useFakeOpenAIServer } from '../test-support/fake-openai-server.js';
import { stepOrchestrator } from '@agent-core/core/testing';

// The turn after an answer sends that answer back as input. The local server refuses, like
// llama.cpp's, any input item without its `type` and any assistant text not in `output_text` parts.

const server = useFakeOpenAIServer();
beforeAll(async () => {
  await loadSdk();
});

const answered = fixtureEvents('responses-text.events.txt');
const ok = [
  responsesEvent({
    type: 'response.completed',
    response: { id: 'resp_2', status: 'completed', output: [], usage: null },
  }),
];

const echo = defineTool({
  name: 'echo',
  description: 'Repeats its input',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: (input) => String(input.text),
});

function agent() {
  return new Agent({
    provider: openai({ apiKey: 'sk-test', baseURL: `${server.origin}/v1`, api: 'responses' }),
    model: 'gpt-4.1-mini',
    tools: [echo],
    orchestrator: stepOrchestrator,
    retry: { maxRetries: 0 },
  });
}

describe('responses: the turn after an answer', () => {
  it('after a normal answer, the next prompt is accepted and carries the answer as a typed message', async () => {
    server.reply({ events: answered }, { events: ok });
    const conversation = agent();
    const first = await conversation.prompt('What is 15 * 3?').result();
    expect(first.terminateReason).toBe('completed');
    expect(first.text).toBe('15 * 3 is 45.');

    const second = await conversation.prompt('And 15 * 4?').result();
    expect(second.error?.message).toBeUndefined();
    expect(second.terminateReason).toBe('completed');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.input).toEqual([
      { type: 'message', role: 'user', content: 'What is 15 * 3?' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '15 * 3 is 45.' }] },
      { type: 'message', role: 'user', content: 'And 15 * 4?' },
    ]);
  });

  it('after an aborted answer, the partial text goes back as a typed message and the next prompt is accepted', async () => {
    // The stream stops after its first two text deltas and then stays open.
    const firstDelta = answered.findIndex((event) => event.includes('response.output_text.delta'));
    server.reply({ events: answered.slice(0, firstDelta + 2), hang: true }, { events: ok });
    const conversation = agent();
    const controller = new AbortController();
    const run = conversation.prompt('What is 15 * 3?', { signal: controller.signal });
    let deltas = 0;
    for await (const event of run) if (event.type === 'text_delta' && ++deltas === 2) controller.abort();
    const first = await run.result();
    expect(first.terminateReason).toBe('aborted');
    expect(conversation.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: '15 *' }],
      stopReason: 'aborted',
    });

    const second = await conversation.prompt('Go on.').result();
    expect(second.error?.message).toBeUndefined();
    expect(second.terminateReason).toBe('completed');
    expect(server.requests[1]!.body.input).toEqual([
      { type: 'message', role: 'user', content: 'What is 15 * 3?' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '15 *' }] },
      { type: 'message', role: 'user', content: 'Go on.' },
    ]);
  });

  it('the local server refuses an input item without its type, as llama.cpp does', async () => {
    const response = await fetch(`${server.origin}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'm',
        input: [
          { type: 'message', role: 'user', content: 'hi' },
          { role: 'assistant', content: 'Hello.' },
        ],
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: "Cannot determine type of 'item'" } });
  });
});
