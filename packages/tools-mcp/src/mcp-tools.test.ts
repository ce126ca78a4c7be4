import { getEventListeners } from 'node:events';
import { ConfigError } from '@agent-core/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadSdk } from './load-sdk.js';
import type { McpToolsError } from './mcp-tools-error.js';
import { type McpTools, mcpTools } from './mcp-tools.js';
import { childPids, stdioServer, toolContext, waitFor } from './test-support/servers.js';
import { rejection, toolNamed } from './test-support/tool-calls.js';

afterAll(() => {
  expect(childPids()).toEqual([]);
});

// The SDK loads on the first connect; load it here so no test's own time limit pays for it.
beforeAll(() => loadSdk());

describe('one stdio server', () => {
  let mcp: McpTools;
  beforeAll(async () => {
    mcp = await mcpTools({ servers: { local: stdioServer() }, timeoutMs: 5_000 });
  });
  afterAll(async () => {
    await mcp.close();
  });

  test('lists the tools, prefixed with the server name', () => {
    expect(mcp.tools.map((tool) => tool.name)).toEqual([
      'local__echo',
      'local__add',
      'local__fail',
      'local__slow',
      'local__garbage',
      'local__hang',
      'local__crash',
      'local__image',
      'local__resources',
      'local__structured',
      'local__add_tool',
      'local__environment',
      'local__sessions',
    ]);
    expect(mcp.servers.local).toMatchObject({ state: 'connected', transport: 'stdio', toolCount: 13 });
  });

  test("passes the server's JSON Schema and description through", () => {
    const echo = toolNamed(mcp.tools, 'local__echo');
    expect(echo.description).toBe('Echoes the text back');
    expect(echo.parameters).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { text: { type: 'string', description: 'What to echo' } },
      required: ['text'],
    });
    expect(echo.mcp).toMatchObject({ server: 'local', name: 'echo' });
    expect(echo.risk).toBe('execute');
  });

  test('calls tools and returns their text', async () => {
    expect(await toolNamed(mcp.tools, 'local__echo').execute({ text: 'hello' }, toolContext())).toBe('hello');
    expect(await toolNamed(mcp.tools, 'local__add').execute({ a: 2, b: 40 }, toolContext())).toBe('42');
  });

  test('maps images to image blocks', async () => {
    const output = await toolNamed(mcp.tools, 'local__image').execute({}, toolContext());
    expect(output).toEqual([
      { type: 'text', text: 'a pixel' },
      { type: 'image', data: expect.stringMatching(/^iVBOR/), mimeType: 'image/png' },
    ]);
  });

  test('describes resources, resource links and audio as text', async () => {
    const output = await toolNamed(mcp.tools, 'local__resources').execute({}, toolContext());
    expect(output).toBe(
      [
        'Resource file:///notes.txt (text/plain):\nnote body',
        '[Resource file:///data.bin: application/octet-stream, 3 bytes, not shown]',
        '[Resource link: big.log file:///big.log (text/plain)]',
        '[Audio: audio/wav, 3 bytes, not shown]',
      ].join('\n'),
    );
  });

  test('shows structured-only content as JSON', async () => {
    expect(await toolNamed(mcp.tools, 'local__structured').execute({}, toolContext())).toBe('{"answer":42}');
  });

  test("an isError result throws with the server's text", async () => {
    const error = await rejection(
      toolNamed(mcp.tools, 'local__fail').execute({ message: 'disk is full' }, toolContext()),
    );
    expect(error.code).toBe('mcp_tool_error');
    expect(error.message).toBe('disk is full');
    expect(error).toMatchObject({ server: 'local', tool: 'fail' });
  });

  test('a call the server refuses says so', async () => {
    const error = await rejection(toolNamed(mcp.tools, 'local__add').execute({ a: 'two' }, toolContext()));
    expect(error.code === 'mcp_call_failed' || error.code === 'mcp_tool_error').toBe(true);
    expect(error.message).toMatch(/add|Invalid/i);
  });

  test('an abort stops the call and the server keeps working', async () => {
    const controller = new AbortController();
    const call = toolNamed(mcp.tools, 'local__slow').execute({ ms: 30_000 }, toolContext(controller.signal));
    controller.abort(new Error('user pressed stop'));
    await expect(call).rejects.toThrow('user pressed stop');
    expect(await toolNamed(mcp.tools, 'local__echo').execute({ text: 'still here' }, toolContext())).toBe(
      'still here',
    );
  });

  test('calls that share one signal leave no abort listeners on it', async () => {
    const controller = new AbortController();
    const echo = toolNamed(mcp.tools, 'local__echo');
    for (let index = 0; index < 15; index++) {
      await echo.execute({ text: String(index) }, toolContext(controller.signal));
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  test('follows list_changed: new tools appear and work', async () => {
    const before = mcp.tools;
    await toolNamed(mcp.tools, 'local__add_tool').execute({ name: 'fresh' }, toolContext());
    await waitFor(() => mcp.tools.some((tool) => tool.name === 'local__fresh'));
    expect(before.map((tool) => tool.name)).not.toContain('local__fresh');
    expect(mcp.servers.local?.toolCount).toBe(14);
    expect(await toolNamed(mcp.tools, 'local__fresh').execute({}, toolContext())).toBe('I am fresh');
  });
});

test('onToolsChanged gets the whole current list after a list change', async () => {
  let resolveChange: (value: { names: string[]; server: string }) => void = () => {};
  const change = new Promise<{ names: string[]; server: string }>((resolve) => {
    resolveChange = resolve;
  });
  const mcp = await mcpTools({
    servers: { first: stdioServer(), second: stdioServer() },
    onToolsChanged: (tools, server) => resolveChange({ names: tools.map((tool) => tool.name), server }),
  });
  try {
    await toolNamed(mcp.tools, 'second__add_tool').execute({ name: 'late' }, toolContext());
    const { names, server } = await change;
    expect(server).toBe('second');
    expect(names).toContain('first__echo');
    expect(names).toContain('second__late');
    expect(names.indexOf('first__echo')).toBeLessThan(names.indexOf('second__late'));
    expect(mcp.tools.map((tool) => tool.name)).toEqual(names);
  } finally {
    await mcp.close();
  }
});

test('a call that takes longer than timeoutMs fails with a clear timeout error', async () => {
  const mcp = await mcpTools({ servers: { local: stdioServer() }, timeoutMs: 150 });
  try {
    const error = await rejection(toolNamed(mcp.tools, 'local__slow').execute({ ms: 30_000 }, toolContext()));
    expect(error.code).toBe('mcp_timeout');
    expect(error.message).toContain("MCP tool 'slow' on server 'local' did not answer within 150 ms");
    expect(await toolNamed(mcp.tools, 'local__echo').execute({ text: 'after' }, toolContext())).toBe('after');
  } finally {
    await mcp.close();
  }
});

describe('names', () => {
  test('are sanitized and shortened so every provider accepts them', async () => {
    const long = `tool_${'x'.repeat(80)}`;
    const mcp = await mcpTools({ servers: { 'my server': stdioServer(['read.file', long]) } });
    try {
      const names = mcp.tools.map((tool) => tool.name);
      for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(names).toContain('my_server__read_file');
      const shortened = mcp.tools.find((tool) => tool.mcp.name === long)!;
      expect(shortened.name).toHaveLength(64);
      // The agent-side name maps back to the server's own name.
      expect(await toolNamed(mcp.tools, 'my_server__read_file').execute({}, toolContext())).toBe(
        'called read.file',
      );
      expect(await shortened.execute({}, toolContext())).toBe(`called ${long}`);
    } finally {
      await mcp.close();
    }
  });

  test('two tools of one server that map to the same name are refused, naming both', async () => {
    const attempt = mcpTools({ servers: { local: stdioServer(['a.b', 'a_b']) } });
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(attempt).rejects.toThrow(
      "MCP tools 'a.b' (server 'local') and 'a_b' (server 'local') both map to the agent tool name 'local__a_b'",
    );
  });

  test('tools of two servers that map to the same name are refused, naming both', async () => {
    const attempt = mcpTools({
      servers: { one: stdioServer(), two: stdioServer() },
      prefix: (_server, tool) => tool,
    });
    await expect(attempt).rejects.toThrow(
      "MCP tools 'echo' (server 'one') and 'echo' (server 'two') both map to the agent tool name 'echo'",
    );
  });

  test('a list change that would collide is refused; the previous tools stay', async () => {
    const errors: McpToolsError[] = [];
    let reported: () => void = () => {};
    const wasReported = new Promise<void>((resolve) => {
      reported = resolve;
    });
    const mcp = await mcpTools({
      servers: { one: stdioServer(), two: stdioServer(['shared']) },
      prefix: (server, tool) => (tool === 'shared' ? 'shared' : `${server}__${tool}`),
      onError: (error) => {
        errors.push(error);
        reported();
      },
    });
    try {
      const before = mcp.tools.map((tool) => tool.name);
      await toolNamed(mcp.tools, 'one__add_tool').execute({ name: 'shared' }, toolContext());
      await wasReported;
      expect(errors[0]?.code).toBe('mcp_list_failed');
      expect(errors[0]?.message).toContain("'shared' (server 'two') and 'shared' (server 'one')");
      expect(mcp.tools.map((tool) => tool.name)).toEqual(before);
      expect(mcp.servers.one).toMatchObject({ state: 'connected', error: { code: 'mcp_list_failed' } });
      expect(await toolNamed(mcp.tools, 'shared').execute({}, toolContext())).toBe('called shared');
    } finally {
      await mcp.close();
    }
  });
});

test('risk can be derived from the tool annotations', async () => {
  const mcp = await mcpTools({
    servers: { local: stdioServer() },
    risk: (tool) => (tool.name === 'echo' ? 'read' : 'write'),
  });
  try {
    expect(toolNamed(mcp.tools, 'local__echo').risk).toBe('read');
    expect(toolNamed(mcp.tools, 'local__add').risk).toBe('write');
  } finally {
    await mcp.close();
  }
});

test('bad options are refused at once', async () => {
  await expect(mcpTools(undefined as never)).rejects.toThrow(ConfigError);
  await expect(mcpTools({ servers: { local: {} as never } })).rejects.toThrow(
    "MCP server 'local' needs either a 'command' (stdio) or a 'url' (streamable HTTP).",
  );
  await expect(mcpTools({ servers: { local: stdioServer() }, timeoutMs: 0 })).rejects.toThrow(
    'timeoutMs is 0',
  );
});
