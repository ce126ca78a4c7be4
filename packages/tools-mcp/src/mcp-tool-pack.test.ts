import { ConfigError, getToolPack, listToolPacks, ToolRegistry } from '@agent-core/core';
import { expect, test } from 'vitest';
import { mcpToolPack, mcpTools } from './index.js';
import { stdioServer } from './test-support/servers.js';

test("importing the package registers the 'mcp' tool pack", () => {
  expect(listToolPacks()).toContain('mcp');
});

test('the pack without connected servers says to await mcpTools first', () => {
  expect(() => getToolPack('mcp')).toThrow(ConfigError);
  expect(() => getToolPack('mcp', { servers: { files: { command: 'node' } } })).toThrow(
    'const mcp = await mcpTools({ servers })',
  );
});

test('the pack gives the tools of connected servers', async () => {
  const mcp = await mcpTools({ servers: { local: stdioServer() } });
  try {
    const tools = new ToolRegistry().resolvePacks(['mcp'], { mcp: { connection: mcp } });
    expect(tools.map((tool) => tool.name)).toEqual(mcp.tools.map((tool) => tool.name));
    expect(mcpToolPack({ connection: mcp })).not.toBe(mcp.tools);
  } finally {
    await mcp.close();
  }
});
