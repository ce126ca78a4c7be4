/** What `toolInputFromJson` made of a tool call's arguments. */
export type ToolInputParse = { ok: true; input: Record<string, unknown> } | { ok: false; problem: string };

/**
 * A tool call's input from the JSON text of its arguments, as a provider
 * assembles it from a stream: empty text is `{}` (a call without
 * arguments); anything but a JSON object is a problem to report as a
 * `malformed` `ProviderError` (core retries it), never an input to pass on.
 *
 * @example
 * const parsed = toolInputFromJson(argumentText);
 * if (!parsed.ok) yield { type: 'error', error: new ProviderError({ kind: 'malformed', message: parsed.problem }) };
 */
export function toolInputFromJson(text: string): ToolInputParse {
  if (text.trim() === '') return { ok: true, input: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: `the tool call's arguments are not JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      ok: false,
      problem: `the tool call's arguments are ${Array.isArray(value) ? 'an array' : `a ${value === null ? 'null' : typeof value}`}, not a JSON object`,
    };
  return { ok: true, input: value as Record<string, unknown> };
}
