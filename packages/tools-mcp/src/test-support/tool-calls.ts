import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { loadSdk } from '../load-sdk.js';
import type { McpTool } from '../mcp-tool.js';
import { McpToolsError } from '../mcp-tools-error.js';
import { childPids } from './servers.js';

/** The tool called `name`; fails naming the tools there are when none is. */
export function toolNamed(tools: readonly McpTool[], name: string): McpTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name} in ${tools.map((each) => each.name).join(', ')}`);
  return tool;
}

/** The McpToolsError `promise` rejects with; fails when it resolves or rejects with anything else. */
export async function rejection(promise: unknown): Promise<McpToolsError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof McpToolsError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/**
 * The checks of a file whose servers die or misbehave: no unhandled rejection in any test, and no
 * server process left once the file is done. The SDK loads before the tests, so no test's own time
 * limit pays for it.
 */
export function checkServersLeaveNothing(): void {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });
  afterAll(() => {
    expect(childPids()).toEqual([]);
  });
  beforeAll(() => loadSdk());
}
