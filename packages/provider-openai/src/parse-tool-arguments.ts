/**
 * Parses a tool call's complete argument text into an input object. Empty or
 * missing arguments (no-argument tools on many servers) give `{}`; arguments
 * that some servers encode twice (a JSON string holding JSON) are unwrapped.
 * Returns undefined when the text is not a JSON object.
 */
export function parseToolArguments(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
    if (typeof value === 'string') value = value.trim() === '' ? {} : JSON.parse(value);
  } catch {
    return undefined;
  }
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return undefined;
  return value as Record<string, unknown>;
}
