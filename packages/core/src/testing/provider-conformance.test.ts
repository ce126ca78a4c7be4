import { describe, expect, it, test } from 'vitest';
import { firstFailure } from '../test-support/first-failure.js';
import type { AssistantMessage, ToolCallBlock } from '../messages/messages.js';
import type { ModelEvent, ModelRequest, Provider } from '../provider/provider.js';
import {
  isContextOverflowMessage,
  ProviderError,
  providerErrorKindForStatus,
} from '../provider/provider-error.js';
import { providerConformance } from './provider-conformance.js';
import type { KitAnswer } from './provider-wire.js';

// A provider written as a stub (no backend: it acts out each answer the kit scripts), correct
// first, then with each mistake a provider author makes by accident: the kit names the rule.

interface Mistakes {
  editsRequest?: boolean;
  overflowAsInvalid?: boolean;
  throws?: boolean;
  ignoresAbort?: boolean;
  dropsStreamedCalls?: boolean;
  emptyInputForBadJson?: boolean;
}

function stub(answer: KitAnswer, mistakes: Mistakes = {}): Provider {
  return {
    name: 'stub',
    async *stream(request: ModelRequest, options = {}): AsyncGenerator<ModelEvent> {
      const signal = options.signal;
      if (mistakes.editsRequest === true)
        for (const message of request.messages)
          if (typeof message.content === 'string')
            (message as { content: string }).content = message.content.toUpperCase();
      if (answer.type === 'status') {
        if (mistakes.throws === true) throw new Error(`HTTP ${answer.status}`);
        const overflow = !mistakes.overflowAsInvalid && isContextOverflowMessage(answer.message);
        const retryAfterMs = answer.retryAfter === undefined ? undefined : Number(answer.retryAfter) * 1000;
        yield {
          type: 'error',
          error: new ProviderError({
            kind: overflow ? 'context_overflow' : providerErrorKindForStatus(answer.status),
            message: answer.message,
            status: answer.status,
            ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          }),
        };
        return;
      }
      const { reply } = answer;
      const content: AssistantMessage['content'] = [];
      let deltas = 0;
      // A lost or silent stream ends after its first delta.
      const interrupted = async function* (): AsyncGenerator<ModelEvent> {
        if (answer.type === 'cut') {
          yield { type: 'error', error: new ProviderError({ kind: 'network', message: 'connection lost' }) };
          return;
        }
        if (mistakes.ignoresAbort === true) await new Promise(() => {});
        await new Promise<void>((resolve) => {
          if (signal === undefined || signal.aborted) resolve();
          else signal.addEventListener('abort', () => resolve(), { once: true });
        });
        yield { type: 'done', message: { role: 'assistant', content, stopReason: 'aborted' } };
      };
      for (const part of reply.parts) {
        if (signal?.aborted) {
          yield { type: 'done', message: { role: 'assistant', content, stopReason: 'aborted' } };
          return;
        }
        if (part.type === 'text' || part.type === 'thinking') {
          for (const delta of part.pieces) {
            yield { type: part.type === 'text' ? 'text_delta' : 'thinking_delta', delta };
            if (answer.type !== 'reply' && ++deltas === 1) return yield* interrupted();
          }
          content.push(
            part.type === 'text'
              ? { type: 'text', text: part.pieces.join('') }
              : { type: 'thinking', thinking: part.pieces.join(''), signature: part.signature },
          );
        } else {
          yield { type: 'toolcall_start', id: part.id, name: part.name };
          for (const delta of part.pieces) yield { type: 'toolcall_delta', id: part.id, delta };
          let input: Record<string, unknown>;
          try {
            input = JSON.parse(part.pieces.join('') || '{}');
          } catch {
            if (mistakes.emptyInputForBadJson !== true) {
              yield {
                type: 'error',
                error: new ProviderError({ kind: 'malformed', message: 'arguments are not JSON' }),
              };
              return;
            }
            input = {};
          }
          const call: ToolCallBlock = { type: 'toolCall', id: part.id, name: part.name, input };
          yield { type: 'toolcall_end', toolCall: call };
          if (mistakes.dropsStreamedCalls !== true) content.push(call);
        }
      }
      const usage = reply.usage;
      yield { type: 'done', message: { role: 'assistant', content, stopReason: reply.stopReason, usage } };
    },
  };
}

const claims = { thinking: true, cacheRead: true, cacheWrite: true };

// The correct stub passes every check.
providerConformance(({ answer }) => stub(answer), { test, describe, capabilities: claims });

describe('the provider kit fails each mistake with the rule it breaks', () => {
  it.each([
    [{ editsRequest: true }, 'request_unchanged'],
    [{ overflowAsInvalid: true }, 'context_overflow'],
    [{ throws: true }, 'never_throws'],
    [{ ignoresAbort: true }, 'stream_ends'],
    [{ dropsStreamedCalls: true }, 'tool_calls_kept'],
    [{ emptyInputForBadJson: true }, 'malformed_arguments'],
  ] as const)('%j: %s', async (mistakes, rule) => {
    const cases = providerConformance(({ answer }) => stub(answer, mistakes), {
      capabilities: claims,
      settleMs: 200,
    });
    const failure = await firstFailure(cases);
    expect(failure?.rule).toBe(rule);
  });
});
