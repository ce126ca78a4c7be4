import { tmpdir } from 'node:os';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { connectMcpServer } from './connect-mcp-server.js';
import type { McpToolsError } from './mcp-tools-error.js';
import { mcpTools } from './mcp-tools.js';
import {
  type HttpTestServer,
  isAlive,
  startHttpServer,
  stdioServer,
  toolContext,
  waitFor,
} from './test-support/servers.js';
import { checkServersLeaveNothing, rejection, toolNamed } from './test-support/tool-calls.js';

checkServersLeaveNothing();

describe('servers that cannot start', () => {
  test('a missing command fails that server only, with a clear error', async () => {
    const errors: McpToolsError[] = [];
    const mcp = await mcpTools({
      servers: { good: stdioServer(), missing: { command: 'agent-core-no-such-command' } },
      onError: (error) => errors.push(error),
    });
    try {
      expect(mcp.servers.missing).toMatchObject({ state: 'failed', transport: 'stdio', toolCount: 0 });
      expect(mcp.servers.missing?.error?.code).toBe('mcp_connect_failed');
      expect(mcp.servers.missing?.error?.message).toBe(
        "MCP server 'missing' could not be started: command 'agent-core-no-such-command' was not found. Check the command and PATH.",
      );
      expect(errors.map((error) => error.server)).toEqual(['missing']);
      expect(mcp.tools.every((tool) => tool.mcp.server === 'good')).toBe(true);
      expect(await toolNamed(mcp.tools, 'good__echo').execute({ text: 'ok' }, toolContext())).toBe('ok');
    } finally {
      await mcp.close();
    }
  });

  test('a server that exits at start is reported with what it wrote on stderr', async () => {
    const mcp = await mcpTools({
      servers: {
        broken: {
          command: process.execPath,
          args: ['-e', 'console.error("config file missing"); process.exit(2)'],
        },
      },
    });
    expect(mcp.tools).toEqual([]);
    expect(mcp.servers.broken?.state).toBe('failed');
    expect(mcp.servers.broken?.error?.message).toContain('exited before completing the MCP handshake');
    expect(mcp.servers.broken?.error?.message).toContain('config file missing');
    await mcp.close();
  });

  test('an HTTP server that is not there fails with the address', async () => {
    const mcp = await mcpTools({ servers: { remote: { url: 'http://127.0.0.1:9/mcp' } } });
    expect(mcp.servers.remote).toMatchObject({ state: 'failed', transport: 'http' });
    expect(mcp.servers.remote?.error?.message).toContain(
      "MCP server 'remote' at http://127.0.0.1:9/mcp could not be connected",
    );
    await mcp.close();
  });

  test('connectMcpServer rejects for a server that cannot start', async () => {
    const error = await rejection(connectMcpServer('missing', { command: 'agent-core-no-such-command' }));
    expect(error.code).toBe('mcp_connect_failed');
  });
});

describe('a stdio server that crashes mid-call', () => {
  test('fails the calls in flight at once; the other server keeps working', async () => {
    const errors: McpToolsError[] = [];
    let stderr = '';
    const mcp = await mcpTools({
      servers: { fragile: stdioServer(), steady: stdioServer() },
      onError: (error) => errors.push(error),
      onStderr: (text, server) => {
        stderr += `${server}: ${text}`;
      },
    });
    try {
      const pid = mcp.servers.fragile?.pid;
      expect(pid).toBeTypeOf('number');
      // Under the default 60 s timeout: only the crash can end this call within the test's time.
      const waiting = rejection(toolNamed(mcp.tools, 'fragile__slow').execute({ ms: 60_000 }, toolContext()));
      const crash = await rejection(toolNamed(mcp.tools, 'fragile__crash').execute({}, toolContext()));
      const slow = await waiting;

      expect(crash.code).toBe('mcp_server_closed');
      expect(crash.message).toContain("The call to MCP tool 'crash' failed: MCP server 'fragile' stopped");
      expect(slow.code).toBe('mcp_server_closed');
      expect(slow.tool).toBe('slow');
      expect(errors.map((error) => [error.server, error.code])).toEqual([['fragile', 'mcp_server_closed']]);
      expect(mcp.servers.fragile).toMatchObject({ state: 'closed', error: { code: 'mcp_server_closed' } });
      expect(isAlive(pid!)).toBe(false);
      expect(stderr).toContain('fragile: test server: crashing on purpose');

      const later = await rejection(
        toolNamed(mcp.tools, 'fragile__echo').execute({ text: 'x' }, toolContext()),
      );
      expect(later.code).toBe('mcp_server_closed');
      expect(later.message).toContain(
        "MCP server 'fragile' is not connected, so tool 'echo' cannot be called",
      );

      expect(await toolNamed(mcp.tools, 'steady__echo').execute({ text: 'fine' }, toolContext())).toBe(
        'fine',
      );
      expect(mcp.servers.steady?.state).toBe('connected');
    } finally {
      await mcp.close();
    }
  });
});

describe('close', () => {
  test('ends the child processes, is idempotent, and fails later calls clearly', async () => {
    const mcp = await mcpTools({ servers: { one: stdioServer(), two: stdioServer() } });
    const pids = [mcp.servers.one?.pid, mcp.servers.two?.pid] as number[];
    expect(pids.every((pid) => isAlive(pid))).toBe(true);
    const inFlight = rejection(toolNamed(mcp.tools, 'one__slow').execute({ ms: 60_000 }, toolContext()));

    await Promise.all([mcp.close(), mcp.close()]);
    await mcp.close();

    expect(pids.map((pid) => isAlive(pid))).toEqual([false, false]);
    expect((await inFlight).code).toBe('mcp_server_closed');
    expect(mcp.servers.one?.state).toBe('closed');
    const after = await rejection(toolNamed(mcp.tools, 'two__echo').execute({ text: 'x' }, toolContext()));
    expect(after.message).toContain("MCP server 'two' is not connected");
  });

  test('returns once the server process exited, without waiting for pipes its own children hold', async () => {
    let stderr = '';
    const server = await connectMcpServer(
      'quick',
      { ...stdioServer(), args: [...(stdioServer().args ?? []), '--hold-stderr'] },
      { onStderr: (text) => (stderr += text) },
    );
    await waitFor(() => /HOLDER \d+/.test(stderr));
    const holder = Number(/HOLDER (\d+)/.exec(stderr)?.[1]);
    const pid = server.status.pid!;
    // With no timer allowed to fire, close() can only end through the exit of the process:
    // the SDK's grace period (a timer) never elapses, so waiting it out would hang this test.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await server.close();
    } finally {
      vi.useRealTimers();
    }
    try {
      expect(isAlive(pid)).toBe(false);
      expect(server.status.state).toBe('closed');
      // The helper still holds the server's stderr: the old close() would have waited for it.
      expect(isAlive(holder)).toBe(true);
    } finally {
      process.kill(holder, 'SIGKILL');
    }
  });

  test('connectMcpServer gives one server with its status, refresh and close', async () => {
    const server = await connectMcpServer('solo', stdioServer(), { prefix: (_server, tool) => tool });
    const pid = server.status.pid!;
    expect(server.tools.map((tool) => tool.name)).toContain('echo');
    await toolNamed(server.tools, 'add_tool').execute({ name: 'extra' }, toolContext());
    const refreshed = await server.refresh();
    expect(refreshed.map((tool) => tool.name)).toContain('extra');
    await server.close();
    expect(server.status.state).toBe('closed');
    expect(isAlive(pid)).toBe(false);
  });
});

test('a stdio server gets env and cwd, and not the whole parent environment', async () => {
  process.env.AGENT_CORE_PARENT_SECRET = 'do-not-leak';
  const directory = tmpdir();
  const server = await connectMcpServer('env', {
    ...stdioServer(),
    env: { TEST_VALUE: 'passed on' },
    cwd: directory,
  });
  try {
    const output = await toolNamed(server.tools, 'env__environment').execute({}, toolContext());
    const seen = JSON.parse(String(output)) as { cwd: string; value: string; keys: string[] };
    expect(seen.value).toBe('passed on');
    expect(seen.cwd).toBe(directory);
    expect(seen.keys).not.toContain('AGENT_CORE_PARENT_SECRET');
  } finally {
    delete process.env.AGENT_CORE_PARENT_SECRET;
    await server.close();
  }
});

describe('streamable HTTP', () => {
  let http: HttpTestServer | undefined;
  afterEach(async () => {
    await http?.stop();
    http = undefined;
  });

  test('lists, calls, follows list changes, and ends its session on close', async () => {
    http = await startHttpServer();
    const mcp = await mcpTools({ servers: { remote: { url: http.url, headers: { 'x-test': 'yes' } } } });
    expect(mcp.servers.remote).toMatchObject({ state: 'connected', transport: 'http' });
    expect(mcp.servers.remote?.pid).toBeUndefined();
    expect(toolNamed(mcp.tools, 'remote__add').parameters).toMatchObject({
      type: 'object',
      required: ['a', 'b'],
    });
    expect(await toolNamed(mcp.tools, 'remote__add').execute({ a: 1, b: 2 }, toolContext())).toBe('3');
    expect((await rejection(toolNamed(mcp.tools, 'remote__fail').execute({}, toolContext()))).message).toBe(
      'it failed on purpose',
    );
    await toolNamed(mcp.tools, 'remote__add_tool').execute({ name: 'over_http' }, toolContext());
    await waitFor(() => mcp.tools.some((tool) => tool.name === 'remote__over_http'));
    expect(await toolNamed(mcp.tools, 'remote__over_http').execute({}, toolContext())).toBe('I am over_http');
    expect(await toolNamed(mcp.tools, 'remote__sessions').execute({}, toolContext())).toBe('1');

    await mcp.close();
    const observer = await connectMcpServer('observer', { url: http.url });
    try {
      // Only the observer's own session is left: close() ended ours.
      expect(await toolNamed(observer.tools, 'observer__sessions').execute({}, toolContext())).toBe('1');
    } finally {
      await observer.close();
    }
  });

  test('a server that dies mid-call fails the call promptly', async () => {
    http = await startHttpServer();
    const errors: McpToolsError[] = [];
    const mcp = await mcpTools({
      servers: { remote: { url: http.url }, local: stdioServer() },
      onError: (error) => errors.push(error),
    });
    try {
      const waiting = rejection(toolNamed(mcp.tools, 'remote__slow').execute({ ms: 60_000 }, toolContext()));
      await rejection(toolNamed(mcp.tools, 'remote__crash').execute({}, toolContext()));
      const slow = await waiting;
      expect(slow.code).toBe('mcp_server_closed');
      expect(mcp.servers.remote?.state).toBe('closed');
      expect(errors.map((error) => error.server)).toEqual(['remote']);
      expect(await toolNamed(mcp.tools, 'local__echo').execute({ text: 'alive' }, toolContext())).toBe(
        'alive',
      );
    } finally {
      await mcp.close();
    }
  });
});
