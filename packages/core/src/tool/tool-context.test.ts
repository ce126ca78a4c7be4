import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, toolContext } from '../index.js';

describe('toolContext', () => {
  it('lets a test call a tool directly, with a live signal and a call id', async () => {
    const seen: string[] = [];
    const echo = defineTool({
      name: 'echo',
      description: 'echoes',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }, context) => {
        seen.push(`${context.toolCallId} ${context.signal.aborted} ${context.agent === undefined}`);
        return text;
      },
    });
    expect(await echo.execute({ text: 'hi' }, toolContext())).toBe('hi');
    const controller = new AbortController();
    controller.abort();
    await echo.execute({ text: 'again' }, toolContext({ signal: controller.signal, toolCallId: 'mine' }));
    expect(seen[0]).toMatch(/^direct_\d+ false true$/);
    expect(seen[1]).toBe('mine true true');
  });
});
