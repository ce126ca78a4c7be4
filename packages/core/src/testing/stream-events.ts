import type { AssistantMessage } from '../messages/messages.js';
import type { ModelEvent } from '../provider/provider.js';
import type { ProviderError } from '../provider/provider-error.js';

/** Reads a stream of events to its end: a provider's `stream()`, or an `AgentRun`. */
export async function collectEvents<Event>(stream: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The message of the final `done` event; throws when the stream did not end with one. */
export function finalMessage(events: readonly ModelEvent[]): AssistantMessage {
  const last = events.at(-1);
  if (last?.type !== 'done') throw new Error(`expected a done event last, got ${JSON.stringify(last)}`);
  return last.message;
}

/** The error of the final `error` event; throws when the stream did not end with one. */
export function finalError(events: readonly ModelEvent[]): ProviderError {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected an error event last, got ${JSON.stringify(last)}`);
  return last.error;
}
