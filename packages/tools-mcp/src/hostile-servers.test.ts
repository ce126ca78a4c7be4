import { describe, expect, test } from 'vitest';
import type { McpToolsError } from './mcp-tools-error.js';
import { mcpTools } from './mcp-tools.js';
import { stdioServer, toolContext } from './test-support/servers.js';
import { checkServersLeaveNothing, rejection, toolNamed } from './test-support/tool-calls.js';

// Real MCP servers that misbehave: garbage on stdout, a call never answered, a process that dies in
// the middle of calls. Each call settles with a clear error or its answer, the other calls and
// servers go on, and nothing is left unhandled or running.

checkServersLeaveNothing();

describe('hostile MCP servers', () => {
  test('garbage on stdout (text, a cut frame, binary, a response to no request) does not break the connection', async () => {
    const errors: McpToolsError[] = [];
    const mcp = await mcpTools({ servers: { noisy: stdioServer() }, onError: (error) => errors.push(error) });
    try {
      const answer = await toolNamed(mcp.tools, 'noisy__garbage').execute({}, toolContext());
      expect(answer).toBe('answered after garbage');
      expect(await toolNamed(mcp.tools, 'noisy__echo').execute({ text: 'still here' }, toolContext())).toBe(
        'still here',
      );
      expect(mcp.servers.noisy?.state).toBe('connected');
    } finally {
      await mcp.close();
    }
  });

  test("a call never answered blocks no other call and ends with the abort's reason; the server keeps serving", async () => {
    const mcp = await mcpTools({ servers: { stuck: stdioServer() } });
    try {
      const controller = new AbortController();
      const reason = new Error('the run was aborted');
      const call = Promise.resolve(
        toolNamed(mcp.tools, 'stuck__hang').execute({}, toolContext(controller.signal)),
      ).then(
        () => 'answered',
        (error: unknown) => error,
      );
      // The echo answers while the other call hangs: one stuck call blocks nothing else.
      expect(await toolNamed(mcp.tools, 'stuck__echo').execute({ text: 'meanwhile' }, toolContext())).toBe(
        'meanwhile',
      );
      controller.abort(reason);
      // The call ends with the abort's reason, as every tool does when its run is aborted.
      expect(await call).toBe(reason);
      expect(await toolNamed(mcp.tools, 'stuck__echo').execute({ text: 'after' }, toolContext())).toBe(
        'after',
      );
    } finally {
      await mcp.close();
    }
  });

  test('a stdio server that dies with calls in flight fails every one of them (never left pending), then each later call', async () => {
    const errors: McpToolsError[] = [];
    const mcp = await mcpTools({
      servers: { dying: stdioServer(), other: stdioServer() },
      onError: (error) => errors.push(error),
    });
    try {
      const inFlight = [
        rejection(toolNamed(mcp.tools, 'dying__hang').execute({}, toolContext())),
        rejection(toolNamed(mcp.tools, 'dying__slow').execute({ ms: 60_000 }, toolContext())),
      ];
      await rejection(toolNamed(mcp.tools, 'dying__crash').execute({}, toolContext()));
      for (const error of await Promise.all(inFlight)) {
        expect(error.code).toBe('mcp_server_closed');
        expect(error.message).toContain('dying');
      }
      const later = await rejection(
        toolNamed(mcp.tools, 'dying__echo').execute({ text: 'x' }, toolContext()),
      );
      expect(later.message).toContain('dying');
      expect(mcp.servers.dying?.state).toBe('closed');
      expect(await toolNamed(mcp.tools, 'other__echo').execute({ text: 'alive' }, toolContext())).toBe(
        'alive',
      );
    } finally {
      await mcp.close();
    }
  });
});
