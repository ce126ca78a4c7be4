import { defineTool } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { afterEach, expect, test } from 'vitest';
import { connectEditor, updatesOf } from './test-support/acp-pair.js';

// `__proto__`, `constructor` and `prototype` keys wherever an editor or a model can put them: in
// request params, `_meta`, content blocks, config values and tool inputs. They stay plain keys: no
// prototype changes, and the server keeps serving.

const hostile = () =>
  JSON.parse(
    '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "prototype": {"polluted": "yes"}}',
  ) as Record<string, unknown>;

afterEach(() => {
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
});

test('__proto__ and constructor keys in params, _meta, content, config and tool input change no prototype', async () => {
  const seen: unknown[] = [];
  const echo = defineTool({
    name: 'echo',
    description: 'Echoes its input',
    risk: 'read',
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
    execute: (input) => {
      seen.push(input);
      return JSON.stringify(input);
    },
  });
  const provider = mock({
    turns: (request) =>
      request.messages.at(-1)?.role === 'toolResult'
        ? { text: 'done' }
        : { toolCalls: [{ name: 'echo', input: { text: 'x', ...hostile() } }] },
  });
  const editor = await connectEditor({
    createAgent: () => ({ provider, model: 'mock', tools: [echo], orchestrator: stepOrchestrator }),
  });
  const { sessionId } = await editor.context.request('session/new', {
    cwd: '/work',
    mcpServers: [],
    _meta: hostile(),
    ...hostile(),
  } as never);
  const response = await editor.context.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: 'go', _meta: hostile(), ...hostile() } as never],
    _meta: hostile(),
  } as never);
  expect(response.stopReason).toBe('end_turn');
  // The tool got the keys as plain data, and the result went back to the editor.
  expect(seen).toHaveLength(1);
  expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
  const updates = updatesOf(editor.notifications, sessionId);
  expect(
    updates.some((update) => update.sessionUpdate === 'tool_call_update' && update.status === 'completed'),
  ).toBe(true);
  await editor.context
    .request('session/set_config_option', { sessionId, configId: '__proto__', value: hostile() } as never)
    .catch((error: unknown) => error);
  await editor.context
    .request('session/set_config_option', { sessionId, configId: 'model', value: '__proto__' } as never)
    .catch((error: unknown) => error);
  await editor.context
    .request('session/load', { sessionId: '__proto__', cwd: '/work', mcpServers: [] })
    .catch((error: unknown) => error);
  // Still serving: another prompt in the same session answers.
  expect(
    (await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] }))
      .stopReason,
  ).toBe('end_turn');
  await editor.quit();
});
