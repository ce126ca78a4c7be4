import { providerErrorKindForStatus } from '@agent-core/core';
import { type KitAnswer, providerConformance } from '@agent-core/core/testing';
import { describe, test } from 'vitest';
import { type MockTurn, mock } from './index.js';

/**
 * The mock has no backend: it is a stub that acts out each answer the kit
 * scripts. An HTTP error becomes the error kind core maps its status to (and
 * the overflow kind for a long request), a lost stream a network error after
 * the first chunk, a silent one a stall after it.
 */
function turnFor(answer: KitAnswer): MockTurn {
  if (answer.type === 'status') {
    const kind = answer.overflow ? 'context_overflow' : providerErrorKindForStatus(answer.status);
    const retryAfterMs =
      answer.retryAfter === undefined ? {} : { retryAfterMs: Number(answer.retryAfter) * 1000 };
    return { error: { kind, status: answer.status, message: answer.message, ...retryAfterMs } };
  }
  const { reply } = answer;
  const turn: MockTurn = { usage: reply.usage, stopReason: reply.stopReason };
  const calls: NonNullable<MockTurn['toolCalls']> = [];
  for (const part of reply.parts) {
    if (part.type === 'text') turn.text = part.pieces.join('');
    else if (part.type === 'thinking') {
      turn.thinking = part.pieces.join('');
      turn.thinkingSignature = part.signature;
    } else {
      const text = part.pieces.join('');
      let input: unknown;
      try {
        input = text === '' ? {} : JSON.parse(text);
      } catch {
        return { error: { kind: 'malformed', message: `arguments of ${part.name} are not JSON` } };
      }
      calls.push({ id: part.id, name: part.name, input: input as Record<string, unknown> });
    }
  }
  if (calls.length > 0) turn.toolCalls = calls;
  if (answer.type === 'cut') turn.error = { kind: 'network', afterChunks: 1 };
  if (answer.type === 'stall') turn.stallAfterChunks = 1;
  return turn;
}

providerConformance(({ answer }) => mock({ turns: [turnFor(answer)], chunkSize: 4 }), {
  test,
  describe,
  capabilities: { thinking: true, cacheRead: true, cacheWrite: true },
});
