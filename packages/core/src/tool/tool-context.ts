import type { ToolContext } from './tool.js';

let directCalls = 0;

/**
 * Builds the context a tool's `execute` gets, for calling a tool outside a
 * run: a fresh signal that never aborts and a made-up call id, unless given.
 *
 * @example
 * const output = await add.execute({ a: 1, b: 2 }, toolContext());
 */
export function toolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    signal: overrides.signal ?? new AbortController().signal,
    toolCallId: overrides.toolCallId ?? `direct_${directCalls++}`,
    ...(overrides.agent === undefined ? {} : { agent: overrides.agent }),
    ...(overrides.session === undefined ? {} : { session: overrides.session }),
  };
}
