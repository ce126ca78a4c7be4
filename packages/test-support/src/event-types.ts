/** The types of a run's events, in order, for readable sequence assertions. */
export function eventTypes(events: readonly { type: string }[]): string[] {
  return events.map((event) => event.type);
}
