import { defineTool } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { connectEditor, updatesOf } from './test-support/acp-pair.js';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  risk: 'read',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

test('a prompt streams its text and tool calls in order, then answers end_turn with nothing after it', async () => {
  const provider = mock({
    turns: [{ toolCalls: [{ name: 'add', input: { a: 2, b: 3 } }] }, { text: 'It is 5.' }],
    chunkSize: 3,
  });
  const editor = await connectEditor({
    createAgent: () => ({ provider, model: 'mock', tools: [add], orchestrator: stepOrchestrator }),
  });
  const { sessionId } = await editor.context.request('session/new', { cwd: '/work', mcpServers: [] });
  const response = await editor.context.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: 'What is 2 + 3?' }],
  });
  expect(response.stopReason).toBe('end_turn');
  const atAnswer = editor.notifications.length;
  const updates = updatesOf(editor.notifications, sessionId);
  expect(updates.map((update) => update.sessionUpdate)).toEqual([
    'tool_call',
    'tool_call_update',
    'tool_call_update',
    'agent_message_chunk',
    'agent_message_chunk',
    'agent_message_chunk',
  ]);
  expect(updates[0]).toMatchObject({
    title: 'add',
    kind: 'read',
    status: 'pending',
    rawInput: { a: 2, b: 3 },
  });
  expect(updates[1]).toMatchObject({ status: 'in_progress' });
  expect(updates[2]).toMatchObject({
    status: 'completed',
    content: [{ type: 'content', content: { text: '5' } }],
  });
  // Nothing arrives once the prompt was answered.
  await new Promise((resolve) => setImmediate(resolve));
  expect(editor.notifications.length).toBe(atAnswer);
  await editor.quit();
});
