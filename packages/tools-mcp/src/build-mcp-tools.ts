import type { ToolContext, ToolOutput } from '@agent-core/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { assertNoCollisions } from './assert-no-collisions.js';
import type { McpConnectionOptions } from './mcp-server-config.js';
import type { McpTool, McpToolAnnotations, McpToolInfo } from './mcp-tool.js';
import { defaultToolName, safeToolName } from './safe-tool-name.js';

// A server that keeps handing out cursors must not keep us listing forever.
const maxListPages = 100;

/** Calls the MCP tool of that name on the server. */
export type CallMcpTool = (
  tool: string,
  input: Record<string, unknown>,
  context: ToolContext,
) => Promise<ToolOutput>;

/** Every tool the server lists, following `nextCursor` pages. */
export async function listAllTools(client: Client, timeoutMs: number): Promise<Record<string, unknown>[]> {
  const tools: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxListPages; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, {
      timeout: timeoutMs,
    });
    tools.push(...(result.tools as Record<string, unknown>[]));
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === '') break;
  }
  return tools;
}

/**
 * Turns listed MCP tools into agent-core tools: safe prefixed names, the raw
 * input schema as `parameters`, and `execute` through `call`. Throws
 * `ConfigError` when two of them map to the same name.
 */
export function buildMcpTools(
  server: string,
  listed: readonly Record<string, unknown>[],
  options: McpConnectionOptions,
  call: CallMcpTool,
): McpTool[] {
  const prefix = options.prefix ?? defaultToolName;
  const tools = listed.map((tool): McpTool => {
    const info: McpToolInfo = {
      server,
      name: String(tool.name),
      inputSchema: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
      ...(typeof tool.title === 'string' ? { title: tool.title } : {}),
      ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
      ...(typeof tool.annotations === 'object' && tool.annotations !== null
        ? { annotations: tool.annotations as McpToolAnnotations }
        : {}),
    };
    const risk = options.risk;
    return Object.freeze({
      name: safeToolName(prefix(server, info.name)),
      description: info.description ?? info.title ?? info.annotations?.title ?? '',
      // Passed through as the server gave it: core validates input against it and sends it to the model.
      parameters: info.inputSchema,
      risk: typeof risk === 'function' ? risk(info) : (risk ?? 'execute'),
      mcp: Object.freeze(info),
      execute: (input: Record<string, unknown>, context: ToolContext) => call(info.name, input, context),
    });
  });
  assertNoCollisions(tools);
  return tools;
}
