import { createHash } from 'node:crypto';

const maxLength = 64;
const hashLength = 8;

/**
 * Turns any string into a tool name every provider accepts
 * (`^[a-zA-Z0-9_-]{1,64}$`): other characters become `_`, and a name longer
 * than 64 characters is cut and ends with `_` and 8 hex digits of a hash of
 * the whole original name, so it stays stable and distinct.
 *
 * @example
 * safeToolName('files__read.file'); // 'files__read_file'
 */
export function safeToolName(name: string): string {
  const sanitized = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (sanitized.length >= 1 && sanitized.length <= maxLength) return sanitized;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, hashLength);
  if (sanitized.length === 0) return `tool_${hash}`;
  return `${sanitized.slice(0, maxLength - hashLength - 1)}_${hash}`;
}

/** The default agent tool name of an MCP tool: `<server>__<tool>`, made safe. */
export function defaultToolName(server: string, tool: string): string {
  return `${server}__${tool}`;
}
