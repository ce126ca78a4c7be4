import type { ModelEvent } from '@agent-core/core';

/**
 * The events a provider streams for the recorded `get_weather({"city":"Paris"})` call of the
 * Chat Completions and Responses fixtures: the start, one delta per argument piece, the end.
 */
export function parisWeatherCallEvents(id: string): ModelEvent[] {
  return [
    { type: 'toolcall_start', id, name: 'get_weather' },
    ...['{"', 'city', '":"', 'Paris', '"}'].map(
      (delta): ModelEvent => ({ type: 'toolcall_delta', id, delta }),
    ),
    {
      type: 'toolcall_end',
      toolCall: { type: 'toolCall', id, name: 'get_weather', input: { city: 'Paris' } },
    },
  ];
}
