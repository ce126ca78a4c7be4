import type { ProviderWire, WireReply } from '@agent-core/core/testing';
import { openaiError } from './openai-chat-wire.js';
import { sseEvent, sseHeaders } from './sse.js';

/** One Responses API stream event, named by its `type`. */
export function responsesEvent(data: { type: string } & Record<string, unknown>): string {
  return sseEvent(data.type, data);
}

function response(model: string, status: string, output: unknown[], usage: unknown, incomplete?: string) {
  return {
    id: 'resp_test',
    object: 'response',
    created_at: 1767225600,
    status,
    error: null,
    incomplete_details: incomplete === undefined ? null : { reason: incomplete },
    model,
    output,
    usage,
  };
}

/** The events of a whole reply: each output item with its deltas, then `response.completed` (or `incomplete`). */
export function responsesReplyEvents(reply: WireReply): string[] {
  const { model, usage } = reply;
  let sequence = 0;
  const event = (data: { type: string } & Record<string, unknown>) =>
    responsesEvent({ ...data, sequence_number: sequence++ });
  const events = [event({ type: 'response.created', response: response(model, 'in_progress', [], null) })];
  const output: unknown[] = [];
  reply.parts.forEach((part, output_index) => {
    if (part.type === 'toolCall') {
      const item = {
        id: `fc_${part.id}`,
        type: 'function_call',
        status: 'in_progress',
        arguments: '',
        call_id: part.id,
        name: part.name,
      };
      events.push(event({ type: 'response.output_item.added', output_index, item }));
      for (const delta of part.pieces)
        events.push(
          event({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta }),
        );
      const done = { ...item, status: 'completed', arguments: part.pieces.join('') };
      events.push(
        event({
          type: 'response.function_call_arguments.done',
          item_id: item.id,
          output_index,
          arguments: done.arguments,
        }),
      );
      events.push(event({ type: 'response.output_item.done', output_index, item: done }));
      output.push(done);
      return;
    }
    if (part.type === 'thinking') {
      const item = {
        id: `rs_${output_index}`,
        type: 'reasoning',
        summary: [] as unknown[],
        encrypted_content: null,
      };
      events.push(event({ type: 'response.output_item.added', output_index, item }));
      for (const delta of part.pieces)
        events.push(
          event({
            type: 'response.reasoning_summary_text.delta',
            item_id: item.id,
            output_index,
            summary_index: 0,
            delta,
          }),
        );
      const done = { ...item, summary: [{ type: 'summary_text', text: part.pieces.join('') }] };
      events.push(event({ type: 'response.output_item.done', output_index, item: done }));
      output.push(done);
      return;
    }
    const item = {
      id: `msg_${output_index}`,
      type: 'message',
      status: 'in_progress',
      content: [] as unknown[],
      role: 'assistant',
    };
    events.push(event({ type: 'response.output_item.added', output_index, item }));
    const emptyPart = { type: 'output_text', annotations: [], text: '' };
    events.push(
      event({
        type: 'response.content_part.added',
        item_id: item.id,
        output_index,
        content_index: 0,
        part: emptyPart,
      }),
    );
    for (const delta of part.pieces)
      events.push(
        event({
          type: 'response.output_text.delta',
          item_id: item.id,
          output_index,
          content_index: 0,
          delta,
        }),
      );
    const text = part.pieces.join('');
    events.push(
      event({ type: 'response.output_text.done', item_id: item.id, output_index, content_index: 0, text }),
    );
    const whole = { ...emptyPart, text };
    events.push(
      event({
        type: 'response.content_part.done',
        item_id: item.id,
        output_index,
        content_index: 0,
        part: whole,
      }),
    );
    const done = { ...item, status: 'completed', content: [whole] };
    events.push(event({ type: 'response.output_item.done', output_index, item: done }));
    output.push(done);
  });
  const reported = {
    input_tokens: usage.input + usage.cacheRead,
    input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.cacheRead + usage.output,
  };
  const cut = reply.stopReason === 'max_tokens';
  events.push(
    event({
      type: cut ? 'response.incomplete' : 'response.completed',
      response: response(
        model,
        cut ? 'incomplete' : 'completed',
        output,
        reported,
        cut ? 'max_output_tokens' : undefined,
      ),
    }),
  );
  return events;
}

/** The Responses API wire format for the provider kit. */
export const responsesWire: ProviderWire = {
  stream: (reply) => ({ headers: sseHeaders, chunks: responsesReplyEvents(reply) }),
  error: (status, message, { overflow }) => openaiError(status, message, overflow),
};
