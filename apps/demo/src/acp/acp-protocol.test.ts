import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { useAcpTestFolder } from './test-support/acp-test-folder.js';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

const folder = useAcpTestFolder('agent-core-acp-protocol-');

test('stdout carries only JSON-RPC: a malformed line gets a parse error, an unknown method method-not-found, and the server keeps serving', async () => {
  const env = { ...process.env };
  delete env.ANTHROPIC_API_KEY;
  delete env.OPENAI_API_KEY;
  const child = spawn(
    process.execPath,
    [cli, 'acp', '--data-dir', join(folder.directory, 'data'), '--log-level', 'debug'],
    {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout });
  const received: unknown[] = [];
  const next = (() => {
    const iterator = lines[Symbol.asyncIterator]();
    return async () => {
      const { value } = await iterator.next();
      // Every line on stdout is a JSON-RPC message: JSON.parse throws otherwise.
      const message = JSON.parse(value as string) as Record<string, unknown>;
      expect(message.jsonrpc).toBe('2.0');
      received.push(message);
      return message;
    };
  })();
  const send = (line: string) => child.stdin.write(`${line}\n`);
  send('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}');
  expect(await next()).toMatchObject({ id: 1, result: { protocolVersion: 1 } });
  send('this is not json {');
  expect(await next()).toMatchObject({ id: null, error: { code: -32700 } });
  send('{"jsonrpc":"2.0","id":2,"method":"session/teleport","params":{}}');
  expect(await next()).toMatchObject({ id: 2, error: { code: -32601 } });
  send(
    '{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"hi"}]}}',
  );
  expect(await next()).toMatchObject({
    id: 3,
    error: {
      code: -32002,
      message: expect.stringContaining("Unknown session 'nope'"),
      data: { sessionId: 'nope' },
    },
  });
  send(
    `{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":"${folder.directory}","mcpServers":[]}}`,
  );
  const created = (await next()) as { result: { sessionId: string } };
  expect(created.result.sessionId).toEqual(expect.any(String));
  send(
    `{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"${created.result.sessionId}","prompt":[{"type":"text","text":"What is 1 + 1?"}]}}`,
  );
  let answer: Record<string, unknown>;
  do answer = await next();
  while (answer.id !== 5);
  expect(answer).toMatchObject({ result: { stopReason: 'end_turn' } });
  child.stdin.end();
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(code).toBe(0);
  // The logs went to stderr, as JSON lines.
  expect(stderr).toContain('"level":"info"');
});

test('bad requests get clear errors: a relative cwd, audio content, an unknown config option or mode', async () => {
  const server = await folder.start();
  await expect(
    server.agent.request('session/new', { cwd: 'relative/path', mcpServers: [] }),
  ).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining('cwd must be an absolute path'),
  });
  await expect(
    server.agent.request('session/new', {
      cwd: folder.directory,
      mcpServers: [{ type: 'http', name: 'web', url: 'http://127.0.0.1:1/mcp', headers: [] }],
    }),
  ).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining('uses http, which this agent does not connect'),
  });
  const sessionId = await folder.newSession(server);
  await expect(
    server.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }],
    }),
  ).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining("'audio' content is not supported"),
  });
  await expect(
    server.agent.request('session/set_config_option', { sessionId, configId: 'temperature', value: 'hot' }),
  ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('model, orchestrator, policy') });
  await expect(server.agent.request('session/set_mode', { sessionId, modeId: 'yolo' })).rejects.toMatchObject(
    {
      code: -32602,
    },
  );
  // The session still works after all that.
  const response = await server.agent.request('session/prompt', {
    sessionId,
    prompt: [
      { type: 'text', text: 'What is 2 + 2?' },
      { type: 'resource_link', name: 'notes', uri: `file://${folder.directory}/notes.txt` },
      { type: 'resource', resource: { uri: `file://${folder.directory}/a.ts`, text: 'const a = 1;' } },
    ],
  });
  expect(response.stopReason).toBe('end_turn');
});

test('a provider whose key the environment lacks asks the editor to authenticate before any session', async () => {
  const server = await folder.start({ args: ['--provider', 'anthropic'] });
  const initialized = await server.agent.request('initialize', { protocolVersion: 1 });
  expect(initialized.authMethods).toEqual([
    expect.objectContaining({ id: 'environment-key', name: 'ANTHROPIC_API_KEY' }),
  ]);
  await expect(
    server.agent.request('session/new', { cwd: folder.directory, mcpServers: [] }),
  ).rejects.toMatchObject({
    code: -32000,
  });
  await expect(server.agent.request('authenticate', { methodId: 'environment-key' })).rejects.toMatchObject({
    code: -32000,
    message: expect.stringContaining('set ANTHROPIC_API_KEY, or api_key in [providers.anthropic]'),
  });
});
