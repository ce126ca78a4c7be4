// A one-tool MCP server over stdio for the demo's tests: `echo { text }`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'demo-test-echo', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Echoes the text back', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
);
await server.connect(new StdioServerTransport());
