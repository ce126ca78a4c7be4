import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestNoteField } from '@agent-core/cassette';
import { restoreSession } from '@agent-core/core';
import { FileSessionStore } from '@agent-core/store-file';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { beforeEach, expect, test } from 'vitest';
import {
  type ReceivedRequest,
  type ScriptedReply,
  startCompatibleServer,
} from '../test-support/compatible-server.js';
import type { AcpProcess, EditorOptions } from './test-support/spawn-acp.js';
import { promptText, useAcpTestFolder } from './test-support/acp-test-folder.js';

// An editor session gets the agent the configuration describes: these tests give `agent-core acp`
// a config file and a project, and read what the model server received.

const echoServer = fileURLToPath(new URL('../test-support/echo-mcp-server.mjs', import.meta.url));

const folder = useAcpTestFolder('agent-core-acp-configured-');
let project: string;
beforeEach(async () => {
  project = join(folder.directory, 'project');
  await mkdir(join(project, '.agent-core'), { recursive: true });
});

function textOf(content: ReceivedRequest['messages'][number]['content'] | unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('');
  return '';
}

/** The model: a summary when asked without tools, a write when told to overwrite, else an answer naming the request. */
function script(request: ReceivedRequest): ScriptedReply {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return { text: `Done: ${textOf(last.content)}` };
  if ((request.tools ?? []).length === 0) return { text: 'A summary of the earlier turns.' };
  if (textOf(last?.content).includes('overwrite'))
    return { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'new text\n' } }] };
  return { text: `Answer ${request.messages.length} from ${request.model}` };
}

async function modelServer() {
  const server = await startCompatibleServer({ reply: script });
  folder.closeAfter(server);
  return server;
}

async function writeConfig(lines: string[]) {
  await mkdir(join(folder.directory, 'config', 'agent-core'), { recursive: true });
  await writeFile(join(folder.directory, 'config', 'agent-core', 'config.toml'), `${lines.join('\n')}\n`);
}

function start(options: Partial<EditorOptions> = {}) {
  return folder.start({
    cwd: project,
    env: { XDG_CONFIG_HOME: join(folder.directory, 'config') },
    permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }),
    ...options,
  });
}

const systemOf = (request: ReceivedRequest | undefined) =>
  textOf(request?.messages.find((message) => message.role === 'system')?.content);

test('the project prompt layers, AGENTS.md, the mode layer, the configured packs and MCP server reach the model; usage and commands reach the editor', async () => {
  const local = await modelServer();
  await writeConfig([
    'provider = "local"',
    'tools = ["basic", "fs"]',
    'context_window = 40000',
    '[providers.local]',
    'type = "openai"',
    `base_url = "${local.url}"`,
    'model = "small"',
    '[mcp_servers.echo]',
    `command = "${process.execPath}"`,
    `args = ["${echoServer}"]`,
    '[mode_prompts]',
    'strict = "Strict mode: only read and explain."',
  ]);
  await writeFile(
    join(project, '.agent-core', 'system_prompt.md'),
    'You are {{model}} on {{provider}}; your tools: {{tools}}.',
  );
  await writeFile(join(project, 'AGENTS.md'), 'Answer in French.');
  const server = await start();
  const { sessionId } = await server.agent.request('session/new', { cwd: project, mcpServers: [] });
  expect((await promptText(server, sessionId, 'Hello')).stopReason).toBe('end_turn');
  const first = local.requests[0] as ReceivedRequest;
  const host = new URL(local.url).host;
  expect(systemOf(first)).toContain(
    `You are small on ${host}; your tools: calculator, clock, read_file, list_files, glob, grep, write_file, edit_file, echo__echo.`,
  );
  expect(systemOf(first)).toContain('Answer in French.');
  expect(systemOf(first)).toContain(project);
  expect(systemOf(first)).not.toContain('Strict mode');
  // The configured packs (not the editor's default fs and shell) and the configured MCP server.
  const tools = first.tools?.map((tool) => tool.function.name) ?? [];
  expect(tools).toContain('echo__echo');
  expect(tools).toContain('write_file');
  expect(tools).not.toContain('shell');
  // The mode layer follows the editor's mode from the next prompt on, without a new agent.
  await server.agent.request('session/set_mode', { sessionId, modeId: 'strict' });
  await promptText(server, sessionId, 'Hello again');
  expect(systemOf(local.requests.at(-1) as ReceivedRequest)).toContain(
    '## Mode: strict\nStrict mode: only read and explain.',
  );
  const updates = server.updates(sessionId);
  expect(updates[0]).toMatchObject({
    sessionUpdate: 'available_commands_update',
    availableCommands: ['compact', 'cost', 'tools', 'help'].map((name) => expect.objectContaining({ name })),
  });
  const usage = updates.filter((update) => update.sessionUpdate === 'usage_update');
  expect(usage).toHaveLength(2);
  expect(usage[0]).toMatchObject({ size: 40000, used: expect.any(Number) });
  expect((usage[0] as { used: number }).used).toBeGreaterThan(10);
  // /tools says where each tool comes from; nothing of it reaches the model.
  const before = local.requests.length;
  expect(await ask(server, sessionId, '/tools')).toContain('`echo__echo` (execute) MCP server echo');
  expect(local.requests).toHaveLength(before);
  expect(await ask(server, sessionId, '/cost')).toMatch(
    /^This session: \d+ tokens in, \d+ out; cost unknown for this model\.$/,
  );
  expect(await ask(server, sessionId, '/help')).toContain('- `/compact`: Compact the history sent');
  expect(local.requests).toHaveLength(before);
  await expect(promptText(server, sessionId, '/undo')).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining('/compact, /cost, /tools, /help'),
  });
});

test('a long session compacts to the configured window and keeps answering; /compact compacts before the next call', async () => {
  const local = await modelServer();
  await writeConfig([
    'provider = "local"',
    'tools = ["basic"]',
    'context_window = 4000',
    '[providers.local]',
    'type = "openai"',
    `base_url = "${local.url}"`,
    'model = "small"',
  ]);
  const server = await start();
  const { sessionId } = await server.agent.request('session/new', { cwd: project, mcpServers: [] });
  const long = (index: number) => `Turn ${index}: ${'note '.repeat(600)}`;
  for (let index = 1; index <= 6; index++)
    expect((await promptText(server, sessionId, long(index))).stopReason).toBe('end_turn');
  const asked = local.requests.filter((request) => (request as ReceivedRequest).tools !== undefined);
  const last = asked.at(-1) as ReceivedRequest;
  // Six prompts and five answers were sent whole before; the last request carries a summary and the newest.
  expect(last.messages.filter((message) => message.role === 'user').length).toBeLessThan(6);
  expect(JSON.stringify(last.messages)).toContain('A summary of the earlier turns.');
  expect(Math.ceil(JSON.stringify(last).length / 4)).toBeLessThan(4000 * 1.25);
  const sizes = server
    .updates(sessionId)
    .flatMap((update) => (update.sessionUpdate === 'usage_update' ? [update.size] : []));
  expect(new Set(sizes)).toEqual(new Set([4000]));

  // Another session with a window far larger: /compact cuts what the next call sends.
  await writeConfig([
    'provider = "local"',
    'tools = ["basic"]',
    'context_window = 100000',
    '[providers.local]',
    'type = "openai"',
    `base_url = "${local.url}"`,
    'model = "small"',
  ]);
  const roomy = await start();
  const other = await roomy.agent.request('session/new', { cwd: project, mcpServers: [] });
  for (let index = 1; index <= 5; index++) await promptText(roomy, other.sessionId, long(index).repeat(2));
  const sentBefore = (local.requests.at(-1) as ReceivedRequest).messages.length;
  expect(await ask(roomy, other.sessionId, '/compact')).toMatch(
    /compacted to about \d+ before the next model call/,
  );
  await promptText(roomy, other.sessionId, 'And now?');
  const after = local.requests.at(-1) as ReceivedRequest;
  expect(after.messages.length).toBeLessThan(sentBefore + 2);
  expect(JSON.stringify(after.messages)).toContain('A summary of the earlier turns.');
});

test('a window nobody knows is learned from the server refusing a request as too long, for every session of the process', async () => {
  const limit = 3000;
  const local = await startCompatibleServer({
    reply: (request) => {
      const tokens = Math.ceil(JSON.stringify(request).length / 4);
      if (tokens > limit)
        return {
          refuse: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
        };
      return script(request);
    },
  });
  folder.closeAfter(local);
  await writeConfig([
    'provider = "local"',
    'tools = ["basic"]',
    '[providers.local]',
    'type = "openai"',
    `base_url = "${local.url}"`,
    'model = "unknown-size"',
  ]);
  const server = await start();
  const { sessionId } = await server.agent.request('session/new', { cwd: project, mcpServers: [] });
  expect(server.stderr()).toContain("the context window of model 'unknown-size' is unknown");
  const long = (index: number) => `Turn ${index}: ${'note '.repeat(600)}`;
  for (let index = 1; index <= 5; index++)
    expect((await promptText(server, sessionId, long(index))).stopReason).toBe('end_turn');
  const sizes = server
    .updates(sessionId)
    .flatMap((update) => (update.sessionUpdate === 'usage_update' ? [update.size] : []));
  // No size before the refusal (the first prompts had no usage update); the learned budget after it.
  expect(sizes.length).toBeGreaterThan(0);
  expect(sizes.length).toBeLessThan(5);
  expect(Math.max(...sizes)).toBeLessThanOrEqual(limit);
  const other = await server.agent.request('session/new', { cwd: project, mcpServers: [] });
  await promptText(server, other.sessionId, 'Hello');
  expect(
    server.updates(other.sessionId).find((update) => update.sessionUpdate === 'usage_update'),
  ).toMatchObject({
    size: Math.max(...sizes),
  });
});

test('every configured model is in the picker by provider; picking the second sends the next prompt to it, and a reload keeps it', async () => {
  const local = await modelServer();
  const other = await modelServer();
  await writeConfig([
    'provider = "local"',
    '[providers.local]',
    'type = "openai"',
    `base_url = "${local.url}"`,
    'model = "small"',
    '[providers.other]',
    'type = "openai"',
    `base_url = "${other.url}"`,
    'model = "large"',
    '[aliases]',
    'claude = { provider = "anthropic", model = "claude-haiku-4-5" }',
  ]);
  let server = await start();
  const created = await server.agent.request('session/new', { cwd: project, mcpServers: [] });
  const { sessionId } = created;
  const picker = created.configOptions?.find((option) => option.id === 'model');
  expect(picker).toMatchObject({
    currentValue: 'local/small',
    options: [
      { group: 'local', options: [{ value: 'local/small', name: 'small' }] },
      { group: 'other', options: [{ value: 'other/large', name: 'large' }] },
      {
        group: 'anthropic',
        options: [
          {
            value: 'claude',
            name: 'claude (claude-haiku-4-5)',
            description: expect.stringContaining('set ANTHROPIC_API_KEY'),
          },
        ],
      },
    ],
  });
  await promptText(server, sessionId, 'One');
  // A model without its key is refused with what to set; the session stays as it was.
  await expect(
    server.agent.request('session/set_config_option', { sessionId, configId: 'model', value: 'claude' }),
  ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('set ANTHROPIC_API_KEY') });
  await expect(
    server.agent.request('session/set_config_option', { sessionId, configId: 'model', value: 'gpt-9' }),
  ).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining('local/small, other/large, claude'),
  });
  await promptText(server, sessionId, 'Two');
  expect(local.requests).toHaveLength(2);
  await server.agent.request('session/set_config_option', {
    sessionId,
    configId: 'model',
    value: 'other/large',
  });
  await promptText(server, sessionId, 'Three');
  expect(other.requests.map((request) => (request as ReceivedRequest).model)).toEqual(['large']);
  expect((other.requests[0] as ReceivedRequest).messages.filter((m) => m.role === 'user')).toHaveLength(3);

  await folder.quit(server);
  server = await start();
  const loaded = await server.agent.request('session/load', { sessionId, cwd: project, mcpServers: [] });
  expect(loaded.configOptions?.find((option) => option.id === 'model')?.currentValue).toBe('other/large');
  await promptText(server, sessionId, 'Four');
  expect(other.requests).toHaveLength(2);
  expect(local.requests).toHaveLength(2);
  expect((other.requests[1] as ReceivedRequest).messages.filter((m) => m.role === 'user')).toHaveLength(4);
  // Every reply, before and after the pick, notes the request it answered, so the session replays whole.
  const { state: stored } = await restoreSession(
    new FileSessionStore({ root: join(folder.directory, 'data', 'sessions') }),
    sessionId,
  );
  const notes = (stored?.messages ?? []).flatMap((message) =>
    message.role === 'assistant'
      ? [(message as unknown as Record<string, { model?: string }>)[requestNoteField]?.model]
      : [],
  );
  expect(notes).toEqual(['small', 'small', 'large', 'large']);
});

test('the permission prompt of an overwrite carries the file as the editor has it and the new text; the result keeps both', async () => {
  const local = await modelServer();
  await writeConfig([
    'provider = "local"',
    'tools = ["fs"]',
    '[providers.local]',
    'type = "openai"',
    `base_url = "${local.url}"`,
  ]);
  const notes = join(project, 'notes.md');
  await writeFile(notes, 'on disk\n');
  const files = new Map([[notes, 'unsaved in the editor\n']]);
  const server = await start({ files, capabilities: { fs: { readTextFile: true, writeTextFile: true } } });
  const { sessionId } = await server.agent.request('session/new', { cwd: project, mcpServers: [] });
  expect((await promptText(server, sessionId, 'Please overwrite the notes')).stopReason).toBe('end_turn');
  const diff = { type: 'diff', path: notes, oldText: 'unsaved in the editor\n', newText: 'new text\n' };
  expect(server.permissionRequests).toHaveLength(1);
  expect(server.permissionRequests[0]?.toolCall).toMatchObject({ kind: 'edit', content: [diff] });
  const completed = server
    .updates(sessionId)
    .find(
      (update): update is Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }> =>
        update.sessionUpdate === 'tool_call_update' && update.status === 'completed',
    );
  expect(completed?.content?.[0]).toEqual(diff);
  expect(files.get(notes)).toBe('new text\n');
});

test('a project config the editor session cannot read is reported on stderr once', async () => {
  await writeConfig(['provider = "mock"']);
  const elsewhere = join(folder.directory, 'elsewhere');
  await mkdir(join(elsewhere, '.agent-core'), { recursive: true });
  await writeFile(join(elsewhere, '.agent-core', 'config.toml'), 'tools = ["shell"]\n');
  const server = await start();
  for (let index = 0; index < 2; index++) {
    const { sessionId } = await server.agent.request('session/new', { cwd: elsewhere, mcpServers: [] });
    expect((await promptText(server, sessionId, 'What is 2 + 2?')).stopReason).toBe('end_turn');
  }
  const reported = server
    .stderr()
    .split('\n')
    .filter((line) => line.includes('is not read for editor sessions'));
  expect(reported).toHaveLength(1);
  expect(reported[0]).toContain(join(elsewhere, '.agent-core', 'config.toml'));
});

/** Sends a prompt and returns the text the editor was shown for it. */
async function ask(server: AcpProcess, sessionId: string, text: string): Promise<string> {
  const before = server.updates(sessionId).length;
  await promptText(server, sessionId, text);
  return server
    .updates(sessionId)
    .slice(before)
    .flatMap((update) =>
      update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
        ? [update.content.text]
        : [],
    )
    .join('');
}
