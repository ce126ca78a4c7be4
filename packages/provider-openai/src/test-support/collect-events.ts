import type { AssistantMessage, ModelEvent, ProviderError } from '@agent-core/core';

/** Reads a model event stream to its end. */
export async function collectEvents(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The message of the final `done` event; fails when the stream did not end with one. */
export function finalMessage(events: readonly ModelEvent[]): AssistantMessage {
  const last = events.at(-1);
  if (last?.type !== 'done') throw new Error(`expected a done event last, got ${JSON.stringify(last)}`);
  return last.message;
}

/** The error of the final `error` event; fails when the stream did not end with one. */
export function finalError(events: readonly ModelEvent[]): ProviderError {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected an error event last, got ${JSON.stringify(last)}`);
  return last.error;
}

/** The types of the events, for readable sequence assertions. */
export function eventTypes(events: readonly ModelEvent[]): string[] {
  return events.map((event) => event.type);
}
