import type { AssistantMessage, ModelEvent, ProviderError } from '@agent-core/core';

/** Reads a provider stream to its end. */
export async function collect(events: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const collected: ModelEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

/** The final message of a stream that must end with `done`. */
export function doneMessage(events: readonly ModelEvent[]): AssistantMessage {
  const last = events[events.length - 1];
  if (last?.type !== 'done')
    throw new Error(`expected the stream to end with done, got ${JSON.stringify(last)}`);
  return last.message;
}

/** The error of a stream that must end with `error`. */
export function streamError(events: readonly ModelEvent[]): ProviderError {
  const last = events[events.length - 1];
  if (last?.type !== 'error')
    throw new Error(`expected the stream to end with error, got ${JSON.stringify(last)}`);
  return last.error;
}
