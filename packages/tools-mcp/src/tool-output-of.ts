import type { ImageBlock, TextBlock, ToolOutput } from '@agent-core/core';

/** The parts of an MCP `tools/call` result that matter here, loosely typed to accept every protocol version. */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  /** Results from servers on protocol 2024-10-07 and before. */
  toolResult?: unknown;
}

type Block = TextBlock | ImageBlock;

function base64Size(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function describeResource(resource: Record<string, unknown>): Block {
  const uri = String(resource.uri ?? '');
  const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : undefined;
  if (typeof resource.text === 'string') {
    return { type: 'text', text: `Resource ${uri}${mimeType ? ` (${mimeType})` : ''}:\n${resource.text}` };
  }
  if (typeof resource.blob === 'string') {
    if (mimeType?.startsWith('image/')) return { type: 'image', data: resource.blob, mimeType };
    return {
      type: 'text',
      text: `[Resource ${uri}: ${mimeType ?? 'binary'}, ${base64Size(resource.blob)} bytes, not shown]`,
    };
  }
  return { type: 'text', text: `[Resource ${uri}]` };
}

function blockOf(item: Record<string, unknown>): Block {
  switch (item.type) {
    case 'text':
      return { type: 'text', text: String(item.text ?? '') };
    case 'image':
      return { type: 'image', data: String(item.data ?? ''), mimeType: String(item.mimeType ?? 'image/png') };
    case 'audio':
      return {
        type: 'text',
        text: `[Audio: ${String(item.mimeType ?? 'unknown type')}, ${base64Size(String(item.data ?? ''))} bytes, not shown]`,
      };
    case 'resource':
      return describeResource((item.resource ?? {}) as Record<string, unknown>);
    case 'resource_link': {
      const details = [item.mimeType, item.description].filter((part) => typeof part === 'string');
      const name = typeof item.name === 'string' ? `${item.name} ` : '';
      return {
        type: 'text',
        text: `[Resource link: ${name}${String(item.uri ?? '')}${details.length > 0 ? ` (${details.join('; ')})` : ''}]`,
      };
    }
    default:
      return { type: 'text', text: `[Unsupported MCP content: ${JSON.stringify(item)}]` };
  }
}

/**
 * Maps an MCP tool result onto a tool output: text stays text, images become
 * image blocks, and audio, embedded resources and resource links become text
 * that describes them. All-text results are joined into one string.
 */
export function toolOutputOf(result: McpCallResult): ToolOutput {
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
  const blocks = content.map(blockOf);
  if (blocks.length === 0) {
    // Structured-only results (and the old `toolResult` form) are shown as JSON.
    const value = result.structuredContent ?? result.toolResult;
    return value === undefined ? '(the tool returned no content)' : JSON.stringify(value);
  }
  if (blocks.every((block) => block.type === 'text')) {
    return blocks.map((block) => (block as TextBlock).text).join('\n');
  }
  return blocks;
}

/** The text of a result's text blocks, for error messages. */
export function textOf(result: McpCallResult): string {
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
  return content
    .filter((item) => item.type === 'text' && typeof item.text === 'string')
    .map((item) => item.text as string)
    .join('\n');
}
