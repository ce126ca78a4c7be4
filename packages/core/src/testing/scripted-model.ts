import type { AssistantMessage, ToolCallBlock } from '../messages/messages.js';
import type { ModelEvent, ModelRequest, Provider } from '../provider/provider.js';
import { ProviderError } from '../provider/provider-error.js';
import type { ConformanceDialect, ScriptedReply } from './conformance-dialect.js';

/** The kit's model: it answers each request from its script and keeps what it was sent. */
export interface ScriptedModel extends Provider {
  /** Every request, with its messages as they were sent. */
  readonly requests: ModelRequest[];
}

const chunk = 6;

/**
 * A provider that answers each request with `next(request)`, streamed as a
 * real one would (deltas in small pieces, tool calls as start, argument
 * pieces and end, usage, then `done`), through `dialect`. It stops at once
 * when the call's signal aborts, as the Provider contract says.
 */
export function scriptedModel(
  next: (request: ModelRequest) => ScriptedReply | 'hang',
  dialect: ConformanceDialect,
): ScriptedModel {
  const requests: ModelRequest[] = [];
  return {
    name: 'conformance',
    requests,
    async *stream(request, options = {}): AsyncGenerator<ModelEvent> {
      requests.push({ ...request, messages: request.messages.slice() });
      const signal = options.signal;
      const own = dialect.ownReply?.(request);
      const scripted = own === undefined ? next(request) : { kind: 'answer' as const, text: '' };
      const partial: AssistantMessage = {
        role: 'assistant',
        content: [],
        stopReason: 'aborted',
        model: request.model,
      };
      if (scripted === 'hang') {
        await new Promise<void>((resolve) => {
          if (signal === undefined || signal.aborted) resolve();
          else signal.addEventListener('abort', () => resolve(), { once: true });
        });
        yield { type: 'done', message: partial };
        return;
      }
      if (scripted.kind === 'failure') {
        if (scripted.afterText) yield { type: 'text_delta', delta: 'Partial ' };
        yield {
          type: 'error',
          error: new ProviderError({
            kind: scripted.error,
            message: `Scripted ${scripted.error} failure.`,
            provider: 'conformance',
          }),
        };
        return;
      }
      const reply = own ?? dialect.reply(scripted, request);
      const content: AssistantMessage['content'] = [];
      let produced = 0;
      if (reply.thinking !== undefined && reply.thinking !== '') {
        for (let index = 0; index < reply.thinking.length; index += chunk) {
          if (signal?.aborted) return yield { type: 'done', message: partial };
          yield { type: 'thinking_delta', delta: reply.thinking.slice(index, index + chunk) };
        }
        content.push({ type: 'thinking', thinking: reply.thinking });
        produced += reply.thinking.length;
      }
      if (reply.text !== undefined && reply.text !== '') {
        const shown = { type: 'text' as const, text: '' };
        partial.content.push(shown);
        for (let index = 0; index < reply.text.length; index += chunk) {
          if (signal?.aborted) return yield { type: 'done', message: partial };
          const piece = reply.text.slice(index, index + chunk);
          shown.text += piece;
          yield { type: 'text_delta', delta: piece };
        }
        content.push({ type: 'text', text: reply.text });
        produced += reply.text.length;
      }
      for (const call of reply.toolCalls ?? []) {
        if (signal?.aborted) return yield { type: 'done', message: partial };
        const toolCall: ToolCallBlock = { type: 'toolCall', id: call.id, name: call.name, input: call.input };
        const json = JSON.stringify(call.input);
        yield { type: 'toolcall_start', id: call.id, name: call.name };
        for (let index = 0; index < json.length; index += chunk)
          yield { type: 'toolcall_delta', id: call.id, delta: json.slice(index, index + chunk) };
        yield { type: 'toolcall_end', toolCall };
        content.push(toolCall);
        produced += json.length;
      }
      if (signal?.aborted) return yield { type: 'done', message: partial };
      const usage = { input: 10, output: Math.ceil(produced / 4), cacheRead: 0, cacheWrite: 0 };
      yield { type: 'usage', usage };
      const calls = reply.toolCalls?.length ?? 0;
      yield {
        type: 'done',
        message: {
          role: 'assistant',
          content,
          stopReason: calls > 0 ? 'tool_use' : 'end_turn',
          usage,
          model: request.model,
        },
      };
    },
  };
}
