/** One SSE event: an optional `event:` line, a JSON `data:` line and the blank line that ends it. */
export function sseEvent(event: string | undefined, data: unknown): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** The headers of an SSE response. */
export const sseHeaders: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
};

/** The headers of a JSON response. */
export const jsonHeaders: Record<string, string> = { 'content-type': 'application/json' };
