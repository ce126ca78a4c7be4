import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AgentMessage,
  type AssistantMessage,
  ContextOverflowError,
  compactMessages,
  estimateTokens,
  historyProblems,
  isModelMessage,
  type Message,
} from '../index.js';

// A history is built from items; an item with tool calls brings its results along, as the loop appends them.
type Item =
  | { kind: 'user'; text: string; images: number }
  | { kind: 'assistant'; text: string; thinking: string | undefined; calls: number; resultSize: number }
  | { kind: 'note'; text: string }
  | { kind: 'system'; text: string };

const text = fc.string({ minLength: 0, maxLength: 400 });
const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('user' as const), text, images: fc.nat(2) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('assistant' as const),
      text,
      thinking: fc.option(text, { nil: undefined }),
      calls: fc.nat(4),
      resultSize: fc.nat(2_000),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('note' as const), text }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('system' as const), text }) },
);

function buildHistory(items: readonly Item[]): AgentMessage[] {
  const history: AgentMessage[] = [];
  let id = 0;
  for (const entry of items) {
    if (entry.kind === 'user') {
      history.push({
        role: 'user',
        content:
          entry.images === 0
            ? entry.text
            : [
                { type: 'text', text: entry.text },
                ...Array.from({ length: entry.images }, () => ({
                  type: 'image' as const,
                  data: 'iVBORw0KGgo=',
                  mimeType: 'image/png',
                })),
              ],
      });
    } else if (entry.kind === 'assistant') {
      const content: AssistantMessage['content'] = [];
      if (entry.thinking !== undefined)
        content.push({ type: 'thinking', thinking: entry.thinking, signature: 'sig' });
      if (entry.text !== '' || entry.calls === 0) content.push({ type: 'text', text: entry.text || 'ok' });
      const ids = Array.from({ length: entry.calls }, () => `call_${id++}`);
      for (const callId of ids)
        content.push({ type: 'toolCall', id: callId, name: 'read', input: { path: callId } });
      history.push({ role: 'assistant', content, stopReason: ids.length > 0 ? 'tool_use' : 'end_turn' });
      for (const callId of ids) {
        history.push({
          role: 'toolResult',
          toolCallId: callId,
          toolName: 'read',
          content: 'x'.repeat(entry.resultSize),
          isError: false,
        });
      }
    } else {
      // App-defined kinds: a note the default conversion leaves out, and a system-level message.
      history.push({ role: entry.kind, text: entry.text } as unknown as AgentMessage);
    }
  }
  return history;
}

const marker: Message = {
  role: 'user',
  content: '[earlier messages were removed to fit the context window.]',
};
const markerTokens = estimateTokens(marker);

describe('compactMessages (property)', () => {
  it('keeps a valid history within budget, with system, pinned and newest user messages and every pair whole', () => {
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 50, max: 20_000 }),
        fc.integer({ min: 0, max: 500 }),
        fc.array(fc.nat(60), { maxLength: 3 }),
        (items, budget, overhead, pinnedIndexes) => {
          const messages = buildHistory(items);
          const counts = messages.map(estimateTokens);
          const pinnedSet = new Set(pinnedIndexes);
          const pinned = (_message: AgentMessage, index: number) => pinnedSet.has(index);
          const input = {
            messages,
            counts,
            overhead,
            target: Math.floor(budget * 0.8),
            limit: budget,
            markerTokens,
            pinned,
          };
          let newestUser = -1;
          messages.forEach((message, index) => {
            if (message.role === 'user') newestUser = index;
          });
          const mustKeep = (index: number) =>
            pinnedSet.has(index) ||
            index === newestUser ||
            (messages[index] as { role: string }).role === 'system';

          let plan: ReturnType<typeof compactMessages>;
          try {
            plan = compactMessages(input);
          } catch (error) {
            // Only when what must be kept is too large on its own.
            expect(error).toBeInstanceOf(ContextOverflowError);
            expect((error as ContextOverflowError).tokens).toBeGreaterThan(budget);
            return;
          }
          const kept = new Set(plan.kept);
          expect([...plan.kept, ...plan.dropped].sort((a, b) => a - b)).toEqual(
            messages.map((_, index) => index),
          );
          for (let index = 0; index < messages.length; index++) {
            if (mustKeep(index)) expect(kept.has(index)).toBe(true);
          }
          // The newest message (and with it the newest tool call's results) is always kept.
          expect(kept.has(messages.length - 1)).toBe(true);

          const sent: AgentMessage[] = plan.dropped.length > 0 ? [marker] : [];
          for (const index of plan.kept) sent.push(messages[index] as AgentMessage);
          expect(historyProblems(sent)).toEqual([]);
          const model = sent.filter(isModelMessage);
          expect(historyProblems(model)).toEqual([]);
          if (messages.some(isModelMessage)) expect(model.length).toBeGreaterThan(0);
          if (plan.dropped.length > 0) expect(model[0]?.role).toBe('user');

          const recounted =
            overhead +
            plan.kept.reduce((sum, index) => sum + (counts[index] ?? 0), 0) +
            (plan.dropped.length > 0 ? markerTokens : 0);
          expect(plan.tokensAfter).toBe(recounted);
          expect(plan.tokensAfter).toBeLessThanOrEqual(budget);
          // Over the target only when every group that could be dropped was.
          if (plan.tokensAfter > input.target) {
            for (const index of plan.kept) {
              const groupStart = (() => {
                let start = index;
                while ((messages[start] as { role: string }).role === 'toolResult') start--;
                return start;
              })();
              let end = groupStart + 1;
              while ((messages[end] as { role: string } | undefined)?.role === 'toolResult') end++;
              const protectedGroup =
                end === messages.length ||
                Array.from({ length: end - groupStart }, (_, k) => groupStart + k).some(mustKeep);
              expect(protectedGroup).toBe(true);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('drops oldest first: every dropped group is older than every kept unprotected one', () => {
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 2, maxLength: 30 }),
        fc.integer({ min: 500, max: 5_000 }),
        (items, budget) => {
          const messages = buildHistory(items);
          const counts = messages.map(estimateTokens);
          let plan: ReturnType<typeof compactMessages>;
          try {
            plan = compactMessages({ messages, counts, target: budget * 0.8, limit: budget, markerTokens });
          } catch {
            return;
          }
          const lastDropped = plan.dropped.at(-1) ?? -1;
          expect(plan.cut).toBe(
            plan.dropped.length === 0 ? 0 : lastDropped + 1 + countResultsAfter(messages, lastDropped),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

function countResultsAfter(messages: readonly AgentMessage[], index: number): number {
  let count = 0;
  while ((messages[index + 1 + count] as { role: string } | undefined)?.role === 'toolResult') count++;
  return count;
}

describe('compactMessages', () => {
  const user = (content: string): Message => ({ role: 'user', content });

  it('refuses a history whose one message cannot fit, naming the numbers', () => {
    const messages = [user('a'.repeat(40_000))];
    expect(() =>
      compactMessages({
        messages,
        counts: messages.map(estimateTokens),
        target: 800,
        limit: 1_000,
        markerTokens,
      }),
    ).toThrow(/10000 tokens, over the budget of 1000/);
  });

  it('drops the earlier marker of a compacted view first and keeps a pair together', () => {
    const messages: AgentMessage[] = [
      marker,
      user('first question'),
      {
        role: 'assistant',
        content: [{ type: 'toolCall', id: 'c1', name: 'read', input: {} }],
        stopReason: 'tool_use',
      },
      { role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: 'y'.repeat(4_000), isError: false },
      user('second question'),
    ];
    const plan = compactMessages({
      messages,
      counts: messages.map(estimateTokens),
      target: 100,
      limit: 200,
      markerTokens,
      startsWithMarker: true,
    });
    expect(plan.dropped).toEqual([0, 1, 2, 3]);
    expect(plan.kept).toEqual([4]);
  });
});
