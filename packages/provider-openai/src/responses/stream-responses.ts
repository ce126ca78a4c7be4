import { ProviderError } from '@agent-core/core';
import type { ModelEvent, ModelInfo, ModelRequest, StopReason, ToolCallBlock } from '@agent-core/core';
import type { OpenAI } from 'openai';
import type { Response, ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses';
import { AssistantMessageBuilder } from '../assistant-message-builder.js';
import { parseToolArguments } from '../parse-tool-arguments.js';
import { toUsage } from '../provider-usage.js';
import { providerErrorKindForCode, toProviderError, withContextOverflow } from '../to-provider-error.js';
import { encodeReasoningSignature } from './reasoning-signature.js';
import { toResponsesRequest } from './to-responses-request.js';
import type { ResponsesRequestSettings } from './to-responses-request.js';

/** What `streamResponses` needs besides the request. */
export interface ResponsesStreamContext extends ResponsesRequestSettings {
  client: OpenAI;
  /** Who answered, as error messages name it: the `name` option, else OpenAI or the server's host. */
  label: string;
  signal: AbortSignal | undefined;
  modelInfo: ModelInfo | undefined;
}

interface FunctionCall {
  callId: string;
  name: string;
  pieces: string[];
  slot: number;
  ended: boolean;
}

function failure(
  error: { code?: unknown; message?: unknown } | null | undefined,
  provider: string,
  label: string,
): ProviderError {
  const kind = withContextOverflow(providerErrorKindForCode(error?.code), error?.message);
  const detail = typeof error?.message === 'string' ? error.message : 'no details';
  const code = typeof error?.code === 'string' ? ` (${error.code})` : '';
  return new ProviderError({ kind, message: `${label}: the response failed${code}: ${detail}`, provider });
}

/**
 * Streams one Responses call as model events.
 *
 * Contract:
 * - Never throws: every failure (HTTP, `response.failed`, an `error` event,
 *   a stream cut before `response.completed`) ends with one `error` event.
 * - Ends with `done` holding text, reasoning (with its id and encrypted
 *   content as the thinking block's signature) and completed function calls.
 * - On abort: `done` with stopReason `aborted`, unfinished calls left out.
 */
export async function* streamResponses(
  request: ModelRequest,
  context: ResponsesStreamContext,
): AsyncGenerator<ModelEvent> {
  const { signal, providerName, label } = context;
  const builder = new AssistantMessageBuilder();
  const functionCalls = new Map<string, FunctionCall>();
  let reportedUsage: ResponseUsage | null | undefined;
  const finish = (stopReason: StopReason): ModelEvent => {
    const usage =
      reportedUsage === undefined || reportedUsage === null
        ? undefined
        : toUsage(
            {
              input: reportedUsage.input_tokens,
              cached: reportedUsage.input_tokens_details?.cached_tokens,
              output: reportedUsage.output_tokens,
            },
            context.modelInfo?.pricing,
          );
    return {
      type: 'done',
      message: builder.build(stopReason, { usage, provider: providerName, model: request.model }),
    };
  };
  const endCall = (
    call: FunctionCall,
    finalArguments: string | undefined,
    truncated: boolean,
  ): ModelEvent => {
    call.ended = true;
    const text = finalArguments ?? call.pieces.join('');
    let input = parseToolArguments(text);
    if (input === undefined) {
      if (!truncated) {
        throw new ProviderError({
          kind: 'malformed',
          message: `${label}: the model sent arguments for tool ${call.name} that are not a JSON object`,
          provider: providerName,
        });
      }
      input = {};
    }
    const toolCall: ToolCallBlock = { type: 'toolCall', id: call.callId, name: call.name, input };
    builder.completeToolCall(call.slot, toolCall);
    return { type: 'toolcall_end', toolCall };
  };
  const ending = (response: Response, stopReason: StopReason): ModelEvent[] => {
    reportedUsage = response.usage;
    const events: ModelEvent[] = [];
    for (const call of functionCalls.values()) {
      if (!call.ended) events.push(endCall(call, undefined, stopReason === 'max_tokens'));
    }
    const done = finish(stopReason === 'end_turn' && builder.hasToolCalls() ? 'tool_use' : stopReason);
    if (done.type === 'done' && done.message.usage !== undefined)
      events.push({ type: 'usage', usage: done.message.usage });
    events.push(done);
    return events;
  };

  try {
    const stream = await context.client.responses.create(toResponsesRequest(request, context), { signal });
    for await (const event of stream as AsyncIterable<ResponseStreamEvent>) {
      if (signal?.aborted) break;
      switch (event.type) {
        case 'response.output_text.delta':
        case 'response.refusal.delta':
          builder.appendText(event.delta);
          yield { type: 'text_delta', delta: event.delta };
          break;
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta':
          builder.appendThinking(event.delta, event.item_id);
          yield { type: 'thinking_delta', delta: event.delta };
          break;
        case 'response.reasoning_summary_part.added':
          // Summary parts of one item are paragraphs: keep them apart.
          if (event.summary_index > 0) builder.appendThinking('\n\n', event.item_id);
          break;
        case 'response.output_item.added':
          if (event.item.type === 'reasoning') builder.openThinking(event.item.id);
          else if (event.item.type === 'function_call') {
            const item = event.item;
            const call: FunctionCall = {
              callId: item.call_id,
              name: item.name,
              pieces: [],
              slot: builder.reserveToolCall(),
              ended: false,
            };
            functionCalls.set(item.id ?? item.call_id, call);
            yield { type: 'toolcall_start', id: call.callId, name: call.name };
            if (item.arguments) {
              call.pieces.push(item.arguments);
              yield { type: 'toolcall_delta', id: call.callId, delta: item.arguments };
            }
          }
          break;
        case 'response.function_call_arguments.delta': {
          const call = functionCalls.get(event.item_id);
          if (call === undefined || call.ended) break;
          call.pieces.push(event.delta);
          yield { type: 'toolcall_delta', id: call.callId, delta: event.delta };
          break;
        }
        case 'response.function_call_arguments.done': {
          const call = functionCalls.get(event.item_id);
          if (call !== undefined && !call.ended) yield endCall(call, event.arguments, false);
          break;
        }
        case 'response.output_item.done':
          if (event.item.type === 'reasoning') {
            const item = event.item;
            const encryptedContent = item.encrypted_content ?? undefined;
            builder.sealThinking(
              item.id,
              encodeReasoningSignature({ id: item.id, encryptedContent }),
              encryptedContent !== undefined && item.summary.length === 0,
            );
          } else if (event.item.type === 'function_call') {
            const call = functionCalls.get(event.item.id ?? event.item.call_id);
            if (call !== undefined && !call.ended) yield endCall(call, event.item.arguments, false);
          }
          break;
        case 'response.completed':
          yield* ending(event.response, 'end_turn');
          return;
        case 'response.incomplete': {
          const reason = event.response.incomplete_details?.reason;
          yield* ending(event.response, reason === 'content_filter' ? 'refusal' : 'max_tokens');
          return;
        }
        case 'response.failed':
          throw failure(event.response.error, providerName, label);
        case 'error':
          throw failure(event, providerName, label);
        default:
          break;
      }
    }
    if (signal?.aborted) {
      yield finish('aborted');
      return;
    }
    throw new ProviderError({
      kind: 'network',
      message: `${label}: the stream ended before the response completed`,
      provider: providerName,
    });
  } catch (error) {
    if (signal?.aborted) {
      yield finish('aborted');
      return;
    }
    yield { type: 'error', error: toProviderError(error, providerName, label) };
  }
}
