import { describe, expect, it } from 'vitest';
import { everyMessageKind, sampleSessionState } from '../testing/session-fixtures.js';
import { checkSessionState, loadSessionStateSchema } from './parse-session-state.js';
import { isPlainValidMessage } from './plain-message-check.js';

/** An array whose first slot is a hole, then `item`. */
function withHole(item: unknown): unknown[] {
  const array: unknown[] = [];
  array[1] = item;
  return array;
}

const call = { type: 'toolCall', id: 'call_1', name: 'add', input: { a: 1, b: 2 } };

/** Messages the loop and providers make every day: the quick check must take them all. */
const everyday: unknown[] = [
  ...everyMessageKind(),
  { role: 'user', content: 'Hi' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Look' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    ],
  },
  { role: 'assistant', content: [call], stopReason: 'tool_use', provider: 'scripted' },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'hm', signature: 'sig' },
      { type: 'text', text: 'Done.' },
    ],
    stopReason: 'end_turn',
    usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cost: 0.001 },
    provider: 'anthropic',
    model: 'claude',
  },
  { role: 'assistant', content: [], stopReason: 'error', errorMessage: 'overloaded' },
  { role: 'toolResult', toolCallId: 'call_1', toolName: 'add', content: '3', isError: false },
  {
    role: 'toolResult',
    toolCallId: 'call_1',
    toolName: 'add',
    content: [{ type: 'text', text: '3' }],
    isError: true,
  },
  { role: 'compaction', keep: [0, 3], summary: 'earlier turns' },
  { role: 'user', content: 'kept', extra: { any: 'field' } },
];

/** Shapes near the edge of the schema, valid or not: the quick check may refuse any, but never accept an invalid one. */
const edges: unknown[] = [
  null,
  'user',
  [],
  { content: 'no role' },
  { role: 1, content: 'x' },
  { role: 'user' },
  { role: 'user', content: 3 },
  { role: 'user', content: [{ type: 'toolCall', id: 'x', name: 'y', input: {} }] },
  { role: 'user', content: [{ type: 'text' }] },
  { role: 'user', content: [{ type: 'image', data: 'AAAA' }] },
  { role: 'user', content: [undefined] },
  // A hole in a content array.
  { role: 'user', content: withHole({ type: 'text', text: 'x' }) },
  { role: 'assistant', content: [call] },
  { role: 'assistant', content: [call], stopReason: 'done' },
  { role: 'assistant', content: 'text', stopReason: 'end_turn' },
  { role: 'assistant', content: [{ ...call, input: [1, 2] }], stopReason: 'tool_use' },
  { role: 'assistant', content: [{ ...call, input: null }], stopReason: 'tool_use' },
  { role: 'assistant', content: [{ ...call, input: new Date(0) }], stopReason: 'tool_use' },
  { role: 'assistant', content: [{ ...call, input: { [Symbol('s')]: 1 } }], stopReason: 'tool_use' },
  { role: 'assistant', content: [{ ...call, input: Object.create(null) }], stopReason: 'tool_use' },
  { role: 'assistant', content: [{ ...call, id: 7 }], stopReason: 'tool_use' },
  {
    role: 'assistant',
    content: [{ type: 'thinking', thinking: 'x', signature: null }],
    stopReason: 'end_turn',
  },
  {
    role: 'assistant',
    content: [{ type: 'thinking', thinking: 'x', redacted: 'yes' }],
    stopReason: 'end_turn',
  },
  { role: 'assistant', content: [{ type: 'image', data: 'x', mimeType: 'y' }], stopReason: 'end_turn' },
  { role: 'assistant', content: [], stopReason: 'end_turn', usage: { input: 1, output: 1 } },
  {
    role: 'assistant',
    content: [],
    stopReason: 'end_turn',
    usage: { input: Number.NaN, output: 1, cacheRead: 0, cacheWrite: 0 },
  },
  {
    role: 'assistant',
    content: [],
    stopReason: 'end_turn',
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, cost: Number.POSITIVE_INFINITY },
  },
  { role: 'assistant', content: [], stopReason: 'end_turn', provider: 3 },
  { role: 'assistant', content: [], stopReason: 'end_turn', model: undefined, provider: undefined },
  { role: 'toolResult', toolCallId: 'call_1', toolName: 'add', content: '3' },
  { role: 'toolResult', toolCallId: 'call_1', content: '3', isError: false },
  { role: 'toolResult', toolCallId: 'call_1', toolName: 'add', content: '3', isError: 'no' },
  new (class Message {
    role = 'user';
    content = 'a class instance';
  })(),
  Object.assign(Object.create(null), { role: 'user', content: 'no prototype' }),
];

function label(value: unknown): string {
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

async function schemaAccepts(message: unknown): Promise<boolean> {
  const schema = await loadSessionStateSchema();
  return schema.safeParse({ ...sampleSessionState('s1'), messages: [message] }).success;
}

describe('the quick check of stored messages', () => {
  it('takes every message the loop and the providers make', async () => {
    for (const message of everyday) {
      expect(await schemaAccepts(message), JSON.stringify(message)).toBe(true);
      expect(isPlainValidMessage(message), JSON.stringify(message)).toBe(true);
    }
  });

  it('never takes a message the session schema refuses', async () => {
    for (const message of [...everyday, ...edges]) {
      if (isPlainValidMessage(message)) expect(await schemaAccepts(message), label(message)).toBe(true);
    }
    // The edge cases include refused ones, so the line above is not vacuous.
    const refused = await Promise.all(edges.map(async (message) => !(await schemaAccepts(message))));
    expect(refused.filter(Boolean).length).toBeGreaterThan(20);
  });

  it('leaves checkSessionState as it was: a bad message anywhere names its field, holes included', async () => {
    const state = sampleSessionState('s1');
    state.messages = [{ role: 'user', content: 'fine' }, { role: 'user', content: 3 } as never];
    await expect(checkSessionState(state)).rejects.toMatchObject({ code: 'invalid_session_state' });
    const holed = sampleSessionState('s2');
    const messages = withHole({ role: 'user', content: 'after' });
    messages.unshift({ role: 'user', content: 'fine' });
    holed.messages = messages as never;
    await expect(checkSessionState(holed)).rejects.toMatchObject({ code: 'invalid_session_state' });
    const badField = sampleSessionState('s3');
    (badField as { status: string }).status = 'sleeping';
    await expect(checkSessionState(badField)).rejects.toMatchObject({ field: 'status' });
    await expect(checkSessionState(sampleSessionState('s4'))).resolves.toBeUndefined();
  });
});
