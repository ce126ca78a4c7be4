import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';

// Raw frames on `agent-core acp`'s stdin, as a broken or hostile editor sends them: each gets a
// clear JSON-RPC error (or is ignored, for a notification or a response nobody asked for), stdout
// carries only JSON-RPC, and the process keeps serving.

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
let directory: string;
let child: ChildProcess | undefined;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(join(tmpdir(), 'agent-core-acp-frames-')));
});
afterEach(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.stdin?.end();
    await exited;
  }
  child = undefined;
  await rm(directory, { recursive: true, force: true });
});

interface Frame {
  id?: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

test('malformed, oversized, out-of-order and unknown-session frames each get a clear error; the server keeps serving', async () => {
  const env: Record<string, string | undefined> = {
    ...process.env,
    XDG_CONFIG_HOME: join(directory, 'config'),
    XDG_STATE_HOME: join(directory, 'state'),
  };
  delete env.ANTHROPIC_API_KEY;
  delete env.OPENAI_API_KEY;
  const server = spawn(process.execPath, [cli, 'acp', '--data-dir', join(directory, 'data')], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child = server;
  const frames: Frame[] = [];
  const waiting = new Map<number | string | null, (frame: Frame) => void>();
  let buffer = '';
  let stdoutIsJson = true;
  server.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      let frame: Frame;
      try {
        frame = JSON.parse(line) as Frame;
      } catch {
        stdoutIsJson = false;
        continue;
      }
      frames.push(frame);
      if (frame.id !== undefined) waiting.get(frame.id)?.(frame);
    }
  });
  const send = (text: string) => server.stdin.write(`${text}\n`);
  const answer = (id: number | null) =>
    new Promise<Frame>((resolve) => {
      const found = frames.find(
        (frame) => frame.id === id && (frame.result !== undefined || frame.error !== undefined),
      );
      if (found !== undefined) resolve(found);
      else waiting.set(id, resolve);
    });
  const request = (id: number, method: string, params: unknown) => {
    send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return answer(id);
  };

  // A prompt before initialize.
  expect((await request(1, 'session/prompt', { sessionId: 'x', prompt: [] })).error?.message).toMatch(
    /must be initialized/,
  );
  // Not JSON at all: a parse error with a null id.
  send('this is not json {');
  expect((await answer(null)).error?.code).toBe(-32700);
  expect(
    (await request(2, 'initialize', { protocolVersion: 1, clientCapabilities: {} })).result,
  ).toBeDefined();
  // A cancel for a session nobody opened, and a response to a request never sent: no answer, no harm.
  send(JSON.stringify({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 'nobody' } }));
  send(JSON.stringify({ jsonrpc: '2.0', id: 987654, result: { unexpected: true } }));
  // A prompt for an unknown session, ids escaping the store, a very long id, an unknown method.
  expect(
    (await request(3, 'session/prompt', { sessionId: 'unknown', prompt: [{ type: 'text', text: 'hi' }] }))
      .error?.message,
  ).toMatch(/Unknown session 'unknown'/);
  for (const [id, sessionId] of [
    [4, '../../etc/passwd'],
    [5, '/etc/passwd'],
    [6, 'a\u0000b'],
    [7, 'x'.repeat(5000)],
  ] as const) {
    const refused = await request(id, 'session/load', { sessionId, cwd: directory, mcpServers: [] });
    expect(refused.error?.code).toBe(-32602);
    expect(refused.error?.message).toMatch(/is not allowed: use 1 to 128 letters/);
  }
  expect((await request(8, 'no/such_method', {})).error?.code).toBe(-32601);
  // Params of the wrong shape.
  expect((await request(9, 'session/new', { cwd: 42, mcpServers: 'none' })).error?.code).toBe(-32602);
  // Megabytes on one line: a session/new padded with 8 MiB is read and answered.
  send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 10,
      method: 'session/new',
      params: { cwd: directory, mcpServers: [], _meta: { padding: 'x'.repeat(8 * 1024 * 1024) } },
    }),
  );
  const created = await answer(10);
  const sessionId = (created.result as { sessionId: string }).sessionId;
  // And the server still serves a whole prompt with a tool call.
  const prompted = await request(11, 'session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: 'What is 6 * 7?' }],
  });
  expect(prompted.result).toEqual(expect.objectContaining({ stopReason: 'end_turn' }));
  expect(server.exitCode).toBeNull();
  expect(stdoutIsJson).toBe(true);
  // Nothing answered the notification or the stray response.
  expect(frames.filter((frame) => frame.id === 987654)).toEqual([]);
}, 60_000);
