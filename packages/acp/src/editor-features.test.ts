import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool, type Logger, MemorySessionStore } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { connectEditor, updatesOf } from './test-support/acp-pair.js';
import { addTool as add } from '@agent-core/test-support/sample-tools';

let folder: string;
beforeEach(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'acp-editor-features-')));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

// A write tool like tools-fs's: the whole new content of a file inside the folder.
const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Writes a file',
  risk: 'write',
  parameters: z.object({ path: z.string(), content: z.string() }),
  execute: async ({ path, content }) => {
    await writeFile(join(folder, path), content);
    return `Wrote ${path}.`;
  },
});

function textOf(updates: ReturnType<typeof updatesOf>): string {
  return updates
    .flatMap((update) =>
      update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
        ? [update.content.text]
        : [],
    )
    .join('');
}

test('a command with run answers without the model; an unknown one names the commands; others reach the model', async () => {
  const provider = mock({ turns: () => ({ text: 'From the model.' }) });
  const seen: string[] = [];
  const editor = await connectEditor({
    createAgent: () => ({ provider, model: 'mock', orchestrator: stepOrchestrator }),
    commands: [
      {
        name: 'cost',
        description: 'Tokens so far',
        run: (input, { session }) => {
          seen.push(input);
          return `${session.messages.length} messages`;
        },
      },
      { name: 'review', description: 'Review the change' },
    ],
  });
  const { sessionId } = await editor.context.request('session/new', { cwd: folder, mcpServers: [] });
  const answer = await editor.context.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: '/cost  in detail ' }],
  });
  expect(answer.stopReason).toBe('end_turn');
  expect(seen).toEqual(['in detail']);
  expect(textOf(updatesOf(editor.notifications, sessionId))).toBe('0 messages');
  expect(provider.requests).toHaveLength(0);
  // The commands are advertised without what runs them.
  expect(updatesOf(editor.notifications, sessionId)[0]).toEqual({
    sessionUpdate: 'available_commands_update',
    availableCommands: [
      { name: 'cost', description: 'Tokens so far' },
      { name: 'review', description: 'Review the change' },
    ],
  });
  await expect(
    editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/cots' }] }),
  ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('/cost, /review') });
  for (const text of ['/review the diff', '/usr/bin/env is missing', 'what does /cost do?'])
    await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  expect(provider.requests).toHaveLength(3);
  await editor.quit();
});

test('the model picker groups models; a model that cannot be used says why and leaves the session as it was', async () => {
  const first = mock({ name: 'first', turns: () => ({ text: 'First.' }) });
  const second = mock({ name: 'second', turns: () => ({ text: 'Second.' }) });
  let made = 0;
  const editor = await connectEditor({
    createAgent: () => ({ provider: first, model: 'a', orchestrator: stepOrchestrator }),
    models: [
      { id: 'first/a', name: 'a', group: 'first', model: 'a' },
      {
        id: 'second/b',
        name: 'b',
        group: 'second',
        model: 'b',
        provider: () => {
          made++;
          return second;
        },
      },
      { id: 'third/c', name: 'c', group: 'third', model: 'c', unavailable: 'set THIRD_KEY' },
    ],
  });
  const created = await editor.context.request('session/new', { cwd: folder, mcpServers: [] });
  const { sessionId } = created;
  const model = created.configOptions?.find((option) => option.id === 'model');
  expect(model).toMatchObject({
    currentValue: 'first/a',
    options: [
      { group: 'first', name: 'first', options: [{ value: 'first/a', name: 'a' }] },
      { group: 'second', name: 'second', options: [{ value: 'second/b', name: 'b' }] },
      { group: 'third', options: [{ value: 'third/c', description: 'set THIRD_KEY' }] },
    ],
  });
  await expect(
    editor.context.request('session/set_config_option', { sessionId, configId: 'model', value: 'third/c' }),
  ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('set THIRD_KEY') });
  await expect(
    editor.context.request('session/set_config_option', { sessionId, configId: 'model', value: 'fourth' }),
  ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('first/a, second/b, third/c') });
  await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'One' }] });
  expect(first.requests).toHaveLength(1);
  expect(made).toBe(0);
  await editor.context.request('session/set_config_option', {
    sessionId,
    configId: 'model',
    value: 'second/b',
  });
  expect(made).toBe(1);
  await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Two' }] });
  expect(second.requests.map((request) => request.model)).toEqual(['b']);
  await editor.quit();
});

test('a write asks with the diff of the file as the editor has it, and its result keeps that old text', async () => {
  await writeFile(join(folder, 'notes.md'), 'on disk\n');
  const provider = mock({
    turns: [
      { toolCalls: [{ name: 'write_file', input: { path: 'notes.md', content: 'new text\n' } }] },
      { toolCalls: [{ name: 'write_file', input: { path: '../outside.md', content: 'x' } }] },
      { text: 'Done.' },
    ],
  });
  const editor = await connectEditor(
    {
      createAgent: () => ({
        provider,
        model: 'mock',
        tools: [writeFileTool],
        orchestrator: stepOrchestrator,
      }),
    },
    {
      capabilities: { fs: { readTextFile: true } },
      readTextFile: () => 'unsaved in the editor\n',
      permission: (request) => ({
        outcome: {
          outcome: 'selected',
          optionId:
            request.toolCall.rawInput && JSON.stringify(request.toolCall.rawInput).includes('outside')
              ? 'reject_once'
              : 'allow_once',
        },
      }),
    },
  );
  const { sessionId } = await editor.context.request('session/new', { cwd: folder, mcpServers: [] });
  await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Write' }] });
  const diff = {
    type: 'diff',
    path: join(folder, 'notes.md'),
    oldText: 'unsaved in the editor\n',
    newText: 'new text\n',
  };
  expect(editor.permissionRequests[0]?.toolCall.content).toEqual([diff]);
  // The file outside the folder is neither read nor shown.
  expect(editor.permissionRequests[1]?.toolCall.content).toBeUndefined();
  const updates = updatesOf(editor.notifications, sessionId);
  const id = editor.permissionRequests[0]?.toolCall.toolCallId;
  const ofCall = updates.filter((update) => 'toolCallId' in update && update.toolCallId === id);
  expect(ofCall.map((update) => ('status' in update ? update.status : undefined) ?? 'content')).toEqual([
    'pending',
    'content',
    'in_progress',
    'completed',
  ]);
  expect(ofCall[1]).toMatchObject({ content: [diff] });
  expect(ofCall[3]).toMatchObject({ content: [diff, { type: 'content' }] });
  expect(await readFile(join(folder, 'notes.md'), 'utf8')).toBe('new text\n');
  await editor.quit();
});

test('the picked profile keeps the factory’s per-tool rules; the usage shows the factory’s window size', async () => {
  let turns = 0;
  const answering = mock({
    turns: (request) =>
      request.messages.at(-1)?.role === 'toolResult' || turns++ > 0
        ? { text: 'ok', usage: { input: 50, output: 5 } }
        : { toolCalls: [{ name: 'add', input: { a: 1, b: 2 } }] },
  });
  const editor = await connectEditor({
    createAgent: () => ({
      provider: answering,
      model: 'mock',
      tools: [add],
      orchestrator: stepOrchestrator,
      policy: { extends: 'standard', tools: { add: 'deny' } },
      contextSize: (_provider, model) => (model === 'mock' ? 4096 : undefined),
    }),
  });
  const { sessionId } = await editor.context.request('session/new', { cwd: folder, mcpServers: [] });
  await editor.context.request('session/set_mode', { sessionId, modeId: 'permissive' });
  await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Add' }] });
  const updates = updatesOf(editor.notifications, sessionId);
  expect(updates).toContainEqual(
    expect.objectContaining({ sessionUpdate: 'tool_call_update', status: 'failed' }),
  );
  expect(updates.find((update) => update.sessionUpdate === 'usage_update')).toMatchObject({ size: 4096 });
  await editor.quit();
});

test('a session stored with a model no longer offered opens on the default, with a warning', async () => {
  const store = new MemorySessionStore();
  const provider = mock({ turns: () => ({ text: 'Hi.' }) });
  const warnings: string[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (message) => warnings.push(message),
    error: () => {},
  };
  const options = {
    store,
    logger,
    createAgent: () => ({ provider, model: 'a', orchestrator: stepOrchestrator }),
  };
  const before = await connectEditor({
    ...options,
    models: [
      { id: 'a', model: 'a' },
      { id: 'b', model: 'b' },
    ],
  });
  const { sessionId } = await before.context.request('session/new', { cwd: folder, mcpServers: [] });
  await before.context.request('session/set_config_option', { sessionId, configId: 'model', value: 'b' });
  await before.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'One' }] });
  await before.quit();
  const after = await connectEditor({ ...options, models: [{ id: 'a', model: 'a' }] });
  const loaded = await after.context.request('session/load', { sessionId, cwd: folder, mcpServers: [] });
  expect(loaded.configOptions?.find((option) => option.id === 'model')?.currentValue).toBe('a');
  expect(warnings.join('\n')).toContain("model 'b'");
  await after.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Two' }] });
  expect(provider.requests.at(-1)?.model).toBe('a');
  expect(provider.requests.at(-1)?.messages).toHaveLength(3);
  await after.quit();
});

test('the usage shows the cost of the whole session, not of the last prompt alone', async () => {
  const provider = Object.assign(
    mock({ turns: () => ({ text: 'Hi.', usage: { input: 100, output: 20, cost: 0.25 } }) }),
    { modelInfo: () => ({ contextWindow: 10_000, maxOutputTokens: 1_000 }) },
  );
  const editor = await connectEditor({
    createAgent: () => ({ provider, model: 'mock', orchestrator: stepOrchestrator }),
  });
  const { sessionId } = await editor.context.request('session/new', { cwd: folder, mcpServers: [] });
  for (const text of ['One', 'Two'])
    await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  const costs = updatesOf(editor.notifications, sessionId).flatMap((update) =>
    update.sessionUpdate === 'usage_update' ? [update.cost?.amount] : [],
  );
  expect(costs).toEqual([0.25, 0.5]);
  await editor.quit();
});
