import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { expect, test } from 'vitest';
import { connectEditor, updatesOf } from './test-support/acp-pair.js';
import { addTool as add } from '@agent-core/test-support/sample-tools';

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
  // Chunks written while earlier updates are in the pipe are merged: compare them merged.
  expect(merged(updates)).toEqual([
    'tool_call',
    'tool_call_update',
    'tool_call_update',
    'agent_message_chunk It is 5.',
  ]);
  expect(updates[0]).toMatchObject({
    title: 'add',
    kind: 'other',
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

test('usage is shown against the model context window, and advertised commands arrive after the session opens', async () => {
  const provider = Object.assign(mock({ turns: [{ text: 'Hi.', usage: { input: 100, output: 20 } }] }), {
    modelInfo: () => ({ contextWindow: 200_000, maxOutputTokens: 8_000 }),
  });
  const editor = await connectEditor({
    createAgent: () => ({ provider, model: 'mock', orchestrator: stepOrchestrator }),
    commands: [{ name: 'review', description: 'Review the current change' }],
  });
  const { sessionId } = await editor.context.request('session/new', { cwd: '/work', mcpServers: [] });
  await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Hello' }] });
  const updates = updatesOf(editor.notifications, sessionId);
  expect(updates[0]).toEqual({
    sessionUpdate: 'available_commands_update',
    availableCommands: [{ name: 'review', description: 'Review the current change' }],
  });
  expect(updates.find((update) => update.sessionUpdate === 'usage_update')).toMatchObject({
    used: 120,
    size: 200_000,
  });
  await editor.quit();
});

test('a run that fails answers the prompt with a JSON-RPC error naming the cause; a run cut at max turns stops with max_turn_requests', async () => {
  const failing = mock({ turns: [{ error: { kind: 'auth', status: 401, message: 'bad key' } }] });
  const looping = mock({ turns: () => ({ toolCalls: [{ name: 'add', input: { a: 1, b: 1 } }] }) });
  let provider = failing;
  const editor = await connectEditor({
    createAgent: () => ({
      provider,
      model: 'mock',
      tools: [add],
      orchestrator: stepOrchestrator,
      limits: { maxTurns: 2 },
    }),
  });
  const { sessionId } = await editor.context.request('session/new', { cwd: '/work', mcpServers: [] });
  await expect(
    editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Hello' }] }),
  ).rejects.toMatchObject({ code: -32603, data: { terminateReason: 'error', code: 'provider_auth' } });
  provider = looping;
  const other = await editor.context.request('session/new', { cwd: '/work', mcpServers: [] });
  const response = await editor.context.request('session/prompt', {
    sessionId: other.sessionId,
    prompt: [{ type: 'text', text: 'Loop' }],
  });
  expect(response.stopReason).toBe('max_turn_requests');
  await editor.quit();
});

test('thoughts, hidden orchestrator prompts and plans replay as they were shown live', async () => {
  // An orchestrator that plans, adds its own instruction, streams its step as thoughts, then answers.
  const planner = {
    name: 'planner',
    async run(context: Parameters<typeof stepOrchestrator.run>[0]) {
      context.nextTurn();
      context.emit({ type: 'custom', name: 'plan', data: { steps: [{ title: 'Add' }] } });
      context.emit({ type: 'custom', name: 'step_start', data: { index: 0 } });
      context.append({ role: 'user', content: 'Step 1: add the numbers.' });
      const step = await context.callModel({
        onTextDelta: (delta) => context.emit({ type: 'thinking_delta', delta }),
      });
      if (!step.ok) return { reason: step.reason };
      context.endTurn(step.message);
      context.emit({ type: 'custom', name: 'step_end', data: { index: 0, status: 'done' } });
      context.nextTurn();
      const answer = await context.callModel();
      if (!answer.ok) return { reason: answer.reason };
      context.endTurn(answer.message);
      return { reason: 'completed' as const };
    },
  };
  const provider = mock({ turns: [{ text: 'Adding 2 and 3.' }, { text: 'It is 5.' }], chunkSize: 4 });
  const editor = await connectEditor({
    createAgent: () => ({ provider, model: 'mock', orchestrator: planner }),
  });
  const { sessionId } = await editor.context.request('session/new', { cwd: '/work', mcpServers: [] });
  await editor.context.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: 'What is 2 + 3?' }],
  });
  const live = merged(updatesOf(editor.notifications, sessionId));
  expect(live).toEqual([
    'plan Add:pending',
    'plan Add:in_progress',
    'agent_thought_chunk Adding 2 and 3.',
    'plan Add:completed',
    'agent_message_chunk It is 5.',
  ]);
  await editor.context.request('session/close', { sessionId });
  const before = editor.notifications.length;
  await editor.context.request('session/load', { sessionId, cwd: '/work', mcpServers: [] });
  const replay = merged(updatesOf(editor.notifications.slice(before), sessionId));
  expect(replay).toEqual(['user_message_chunk What is 2 + 3?', ...live]);
  await editor.quit();
});

test('with a session manager of the app own, only what works is offered: no MCP servers, no orchestrator or policy options', async () => {
  const { MemorySessionStore, SessionManager } = await import('@agent-core/core');
  const provider = mock({ turns: [{ text: 'Hi.' }] });
  const manager = new SessionManager({
    store: new MemorySessionStore(),
    agentOptions: () => ({ provider, model: 'mock', orchestrator: stepOrchestrator }),
  });
  const editor = await connectEditor({ manager, models: [{ id: 'small', model: 'mock' }] });
  const created = await editor.context.request('session/new', { cwd: '/work', mcpServers: [] });
  expect(created.configOptions?.map((option) => option.id)).toEqual(['model']);
  expect(created.modes).toBeUndefined();
  await expect(
    editor.context.request('session/new', {
      cwd: '/work',
      mcpServers: [{ name: 'x', command: 'x', args: [], env: [] }],
    }),
  ).rejects.toMatchObject({ code: -32602 });
  const response = await editor.context.request('session/prompt', {
    sessionId: created.sessionId,
    prompt: [{ type: 'text', text: 'Hello' }],
  });
  expect(response.stopReason).toBe('end_turn');
  await editor.quit();
});

test('authentication: sessions are refused until the app says it is done', async () => {
  let authenticated = false;
  const provider = mock({ turns: [{ text: 'Hi.' }] });
  const editor = await connectEditor({
    createAgent: () => ({ provider, model: 'mock', orchestrator: stepOrchestrator }),
    auth: {
      methods: [{ id: 'login', name: 'Log in' }],
      required: () => !authenticated,
      authenticate: () => {
        authenticated = true;
      },
    },
  });
  await expect(editor.context.request('session/new', { cwd: '/work', mcpServers: [] })).rejects.toMatchObject(
    {
      code: -32000,
    },
  );
  await expect(editor.context.request('authenticate', { methodId: 'other' })).rejects.toMatchObject({
    code: -32602,
  });
  await editor.context.request('authenticate', { methodId: 'login' });
  const { sessionId } = await editor.context.request('session/new', { cwd: '/work', mcpServers: [] });
  expect(sessionId).toEqual(expect.any(String));
  await expect(
    editor.context.request('session/load', { sessionId: 'never-stored', cwd: '/work', mcpServers: [] }),
  ).rejects.toMatchObject({ code: -32002 });
  await editor.quit();
});

/** Updates as short strings, consecutive chunks of one kind merged. */
function merged(updates: ReturnType<typeof updatesOf>): string[] {
  const lines: string[] = [];
  let last = '';
  for (const update of updates) {
    if (
      update.sessionUpdate === 'agent_message_chunk' ||
      update.sessionUpdate === 'agent_thought_chunk' ||
      update.sessionUpdate === 'user_message_chunk'
    ) {
      const text = update.content.type === 'text' ? update.content.text : '';
      if (last === update.sessionUpdate) lines[lines.length - 1] += text;
      else lines.push(`${update.sessionUpdate} ${text}`);
      last = update.sessionUpdate;
      continue;
    }
    last = '';
    if (update.sessionUpdate === 'plan')
      lines.push(`plan ${update.entries.map((entry) => `${entry.content}:${entry.status}`).join(' ')}`);
    else lines.push(update.sessionUpdate);
  }
  return lines;
}

test('a flood of deltas is merged into fewer chunks while earlier ones are written, with no text lost or reordered', async () => {
  const text = Array.from({ length: 2000 }, (_, index) => `${index},`).join('');
  const provider = mock({ turns: [{ text }], chunkSize: 5 });
  const editor = await connectEditor({
    createAgent: () => ({ provider, model: 'mock', orchestrator: stepOrchestrator }),
  });
  const { sessionId } = await editor.context.request('session/new', { cwd: '/work', mcpServers: [] });
  await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Count' }] });
  const chunks = updatesOf(editor.notifications, sessionId).filter(
    (update) => update.sessionUpdate === 'agent_message_chunk',
  );
  expect(chunks.map((chunk) => (chunk.content.type === 'text' ? chunk.content.text : '')).join('')).toBe(
    text,
  );
  // One delta per 5 characters would be this many chunks; merging sends fewer.
  expect(chunks.length).toBeLessThan(Math.ceil(text.length / 5));
  await editor.quit();
});

test('the model option switches model and provider between prompts, keeping the conversation', async () => {
  const small = mock({ name: 'small-provider', turns: [{ text: 'Small.' }] });
  const large = mock({ name: 'large-provider', turns: [{ text: 'Large.' }] });
  const editor = await connectEditor({
    createAgent: () => ({ provider: small, model: 'unused', orchestrator: stepOrchestrator }),
    models: [
      { id: 'small', model: 'small-model' },
      { id: 'large', name: 'Large', model: 'large-model', provider: large },
    ],
  });
  const { sessionId } = await editor.context.request('session/new', { cwd: '/work', mcpServers: [] });
  await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'One' }] });
  const changed = await editor.context.request('session/set_config_option', {
    sessionId,
    configId: 'model',
    value: 'large',
  });
  expect(changed.configOptions.find((option) => option.id === 'model')?.currentValue).toBe('large');
  await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Two' }] });
  expect(small.requests.map((request) => request.model)).toEqual(['small-model']);
  expect(large.requests.map((request) => request.model)).toEqual(['large-model']);
  // The second provider is sent the whole conversation.
  expect(large.requests[0]?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
  await editor.quit();
});
