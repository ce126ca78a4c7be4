import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { type AcpProcess, descendantsOf, isGone } from './test-support/spawn-acp.js';
import { promptText, useAcpTestFolder } from './test-support/acp-test-folder.js';

const echoServer = fileURLToPath(new URL('../test-support/echo-mcp-server.mjs', import.meta.url));

const folder = useAcpTestFolder('agent-core-acp-editor-', {
  permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow_always' } }),
});

function textOf(server: AcpProcess, sessionId: string): string {
  return server
    .updates(sessionId)
    .flatMap((update) =>
      update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
        ? [update.content.text]
        : [],
    )
    .join('');
}

test('an editor that declares fs gets the reads and writes: its unsaved buffer is read, its write lands in the editor', async () => {
  const files = new Map<string, string>();
  const file = join(folder.directory, 'notes.txt');
  await writeFile(file, 'on disk\n');
  files.set(file, 'unsaved in the editor\n');
  const server = await folder.start({
    files,
    capabilities: { fs: { readTextFile: true, writeTextFile: true } },
  });
  const sessionId = await folder.newSession(server);
  await promptText(server, sessionId, 'call read_file {"path":"notes.txt"}');
  expect(textOf(server, sessionId)).toContain('unsaved in the editor');
  await promptText(server, sessionId, 'call write_file {"path":"new/plan.md","content":"# Plan"}');
  expect(files.get(join(folder.directory, 'new', 'plan.md'))).toBe('# Plan');
  // The editor wrote it, not the agent: the disk has no such file, and no temporary file was left.
  expect(existsSync(join(folder.directory, 'new', 'plan.md'))).toBe(false);
  expect((await import('node:fs')).readdirSync(join(folder.directory, 'new'))).toEqual([]);
  // Workspace isolation holds whoever does the reading.
  await promptText(server, sessionId, 'call read_file {"path":"../outside.txt"}');
  expect(textOf(server, sessionId)).toContain('outside the workspace root');
});

test('an editor that declares no fs leaves reads and writes to the disk', async () => {
  const server = await folder.start();
  const sessionId = await folder.newSession(server);
  await promptText(server, sessionId, 'call write_file {"path":"plan.md","content":"# Plan"}');
  expect(await readFile(join(folder.directory, 'plan.md'), 'utf8')).toBe('# Plan');
});

test('an editor that declares terminal runs the shell commands; without it they run as local processes', async () => {
  const server = await folder.start({ capabilities: { terminal: true } });
  const sessionId = await folder.newSession(server);
  await promptText(server, sessionId, 'run shell {"command":"echo from-terminal"}');
  expect(server.terminals.created).toHaveLength(1);
  expect(server.terminals.created[0]).toMatchObject({
    command: '/bin/sh',
    args: ['-c', 'echo from-terminal'],
    cwd: folder.directory,
  });
  expect(textOf(server, sessionId)).toContain('from-terminal');

  const local = await folder.start();
  const other = await local.agent.request('session/new', { cwd: folder.directory, mcpServers: [] });
  await promptText(local, other.sessionId, 'run shell {"command":"echo locally"}');
  expect(local.terminals.created).toHaveLength(0);
  expect(textOf(local, other.sessionId)).toContain('locally');
});

test('the MCP servers an editor passes serve the session, and closing stdin leaves no process behind', async () => {
  const server = await folder.start();
  const { sessionId } = await server.agent.request('session/new', {
    cwd: folder.directory,
    mcpServers: [{ name: 'echo', command: process.execPath, args: [echoServer], env: [] }],
  });
  await promptText(server, sessionId, 'call echo__echo {"text":"hi"}');
  expect(textOf(server, sessionId)).toContain('echo: hi');
  // A command still running when the editor quits goes too.
  const running = server.agent
    .request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run shell {"command":"sleep 30"}' }],
    })
    .catch((error: unknown) => error);
  await server.waitForUpdate(
    sessionId,
    (update) => update.sessionUpdate === 'tool_call_update' && update.status === 'in_progress',
  );
  const children = descendantsOf(server.child.pid as number);
  expect(children.length).toBeGreaterThan(0);
  expect(await folder.quit(server)).toBe(0);
  await running;
  for (const pid of children) expect(isGone(pid)).toBe(true);
  expect(server.stderr()).not.toContain('Error');
});

test('an MCP server that fails to start is a warning on stderr; the session opens with the others', async () => {
  const server = await folder.start();
  const { sessionId } = await server.agent.request('session/new', {
    cwd: folder.directory,
    mcpServers: [
      { name: 'broken', command: join(folder.directory, 'no-such-server'), args: [], env: [] },
      { name: 'echo', command: process.execPath, args: [echoServer], env: [] },
    ],
  });
  await promptText(server, sessionId, 'call echo__echo {"text":"still here"}');
  expect(textOf(server, sessionId)).toContain('echo: still here');
  expect(server.stderr()).toContain("MCP server 'broken' failed");
});
