import type { AssistantMessage, ModelEvent, ModelRequest, Provider } from '../index.js';

/** One scripted reply of the inline provider: events to yield, or a function of the request. */
export type InlineReply =
  | ModelEvent[]
  | ((request: ModelRequest, signal: AbortSignal | undefined) => AsyncIterable<ModelEvent>);

/** A minimal provider for core's own tests (core may not depend on provider-mock). */
export function inlineProvider(
  replies: InlineReply[],
  name = 'inline',
): Provider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name,
    requests,
    async *stream(request, options) {
      const reply = replies[requests.length];
      requests.push({ ...request, messages: request.messages.slice() });
      if (reply === undefined) throw new Error('inline provider: no reply scripted');
      if (typeof reply === 'function') yield* reply(request, options?.signal);
      else yield* reply;
    },
  };
}

/** A `done` event with a text answer. */
export function textDone(text: string): ModelEvent {
  const message: AssistantMessage = {
    role: 'assistant',
    content: [{ type: 'text', text }],
    stopReason: 'end_turn',
  };
  return { type: 'done', message };
}

/** A `done` event asking for one tool call. */
export function toolDone(name: string, input: Record<string, unknown>, id = `call_${name}`): ModelEvent {
  return {
    type: 'done',
    message: { role: 'assistant', content: [{ type: 'toolCall', id, name, input }], stopReason: 'tool_use' },
  };
}

/** A `done` event with several tool calls and optional text before them. */
export function callsDone(
  calls: { id: string; name: string; input: Record<string, unknown> }[],
  text?: string,
): ModelEvent {
  const message: AssistantMessage = {
    role: 'assistant',
    content: [
      ...(text === undefined ? [] : [{ type: 'text' as const, text }]),
      ...calls.map((call) => ({ type: 'toolCall' as const, ...call })),
    ],
    stopReason: 'tool_use',
  };
  return { type: 'done', message };
}
