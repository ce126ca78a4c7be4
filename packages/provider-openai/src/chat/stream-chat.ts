import { randomUUID } from 'node:crypto';
import { ProviderError } from '@agent-core/core';
import type { ModelEvent, ModelInfo, ModelRequest, StopReason } from '@agent-core/core';
import type { OpenAI } from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { AssistantMessageBuilder } from '../assistant-message-builder.js';
import { toUsage } from '../provider-usage.js';
import { toProviderError } from '../to-provider-error.js';
import { ChatToolCalls } from './chat-tool-calls.js';
import type { ToolCallDelta } from './chat-tool-calls.js';
import { toChatRequest } from './to-chat-request.js';
import type { ChatRequestSettings } from './to-chat-request.js';

/** What `streamChat` needs besides the request. */
export interface ChatStreamContext extends ChatRequestSettings {
  client: OpenAI;
  /** Who answered, as error messages name it: the `name` option, else OpenAI or the server's host. */
  label: string;
  signal: AbortSignal | undefined;
  modelInfo: ModelInfo | undefined;
}

// The fields compatible servers add to a chunk's delta beyond OpenAI's own.
type LooseDelta = ChatCompletionChunk.Choice.Delta & {
  reasoning_content?: string | null;
  reasoning?: string | null;
};

function stopReasonOf(finishReason: string, madeToolCalls: boolean): StopReason {
  switch (finishReason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      // `stop`, and whatever else a compatible server invents (`eos`): a reply with calls wants them run.
      return madeToolCalls ? 'tool_use' : 'end_turn';
  }
}

/**
 * Streams one Chat Completions call as model events.
 *
 * Contract:
 * - Never throws: every failure ends the stream with one `error` event.
 * - Ends with `done` whose message holds every block that completed; on abort
 *   its stopReason is `aborted` and tool calls still streaming are left out.
 * - Usage is the last usage the server reported (with or without choices);
 *   when it reports none, the message has no usage.
 */
export async function* streamChat(
  request: ModelRequest,
  context: ChatStreamContext,
): AsyncGenerator<ModelEvent> {
  const { signal, providerName, label } = context;
  const builder = new AssistantMessageBuilder();
  const calls = new ChatToolCalls(builder, `call_${randomUUID().slice(0, 8)}_`);
  let finishReason: string | undefined;
  let reportedUsage: CompletionUsage | undefined;
  const finish = (stopReason: StopReason): ModelEvent => {
    const usage =
      reportedUsage === undefined
        ? undefined
        : toUsage(
            {
              input: reportedUsage.prompt_tokens,
              cached: reportedUsage.prompt_tokens_details?.cached_tokens,
              output: reportedUsage.completion_tokens,
            },
            context.modelInfo?.pricing,
          );
    return {
      type: 'done',
      message: builder.build(stopReason, { usage, provider: providerName, model: request.model }),
    };
  };
  // The answer once the model finished: the calls still open, the usage, `done`.
  const complete = function* (reason: string): Generator<ModelEvent> {
    yield* calls.finish(reason === 'length');
    const done = finish(stopReasonOf(reason, builder.hasToolCalls()));
    if (done.type === 'done' && done.message.usage !== undefined)
      yield { type: 'usage', usage: done.message.usage };
    yield done;
  };

  try {
    const stream = await context.client.chat.completions.create(toChatRequest(request, context), { signal });
    for await (const chunk of stream) {
      if (signal?.aborted) break;
      if (chunk.usage) reportedUsage = chunk.usage;
      for (const choice of chunk.choices ?? []) {
        // Only the first choice is read; `n` is never set above 1.
        if ((choice.index ?? 0) !== 0) continue;
        const delta = (choice.delta ?? {}) as LooseDelta;
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (typeof reasoning === 'string' && reasoning !== '') {
          builder.appendThinking(reasoning);
          yield { type: 'thinking_delta', delta: reasoning };
        }
        if (typeof delta.content === 'string' && delta.content !== '') {
          builder.appendText(delta.content);
          yield { type: 'text_delta', delta: delta.content };
        }
        if (typeof delta.refusal === 'string' && delta.refusal !== '') {
          builder.appendText(delta.refusal);
          yield { type: 'text_delta', delta: delta.refusal };
        }
        const toolDeltas: ToolCallDelta[] = delta.tool_calls ?? [];
        // The legacy `function_call` field: one call, no id.
        if (delta.function_call) toolDeltas.push({ index: 0, function: delta.function_call });
        if (toolDeltas.length > 0) yield* calls.accept(toolDeltas);
        if (choice.finish_reason) {
          finishReason ??= choice.finish_reason;
          yield* calls.finish(finishReason === 'length');
        }
      }
      // The usage-only chunk after finish_reason is the last before `[DONE]`: stop reading, so a
      // server or proxy that holds the connection open afterwards cannot stall a finished answer.
      if (finishReason !== undefined && chunk.usage && (chunk.choices ?? []).length === 0) break;
    }
    if (signal?.aborted) {
      yield finish('aborted');
      return;
    }
    if (finishReason === undefined) {
      throw new ProviderError({
        kind: 'network',
        message: `${label}: the stream ended before the model finished (no finish_reason)`,
      });
    }
    yield* complete(finishReason);
  } catch (error) {
    if (signal?.aborted) {
      yield finish('aborted');
      return;
    }
    const failure = toProviderError(error, providerName, label);
    // A connection lost after finish_reason cost at most the usage: the answer is whole.
    if (finishReason !== undefined && failure.kind === 'network') {
      yield* complete(finishReason);
      return;
    }
    yield { type: 'error', error: failure };
  }
}
