import type { WireEndpoint, WireResponse, WireServe } from './provider-wire.js';

/** How the body of a scripted response ends: whole, cut by a lost connection, or stalled until the client aborts. */
export type BodyEnding = 'end' | 'cut' | 'stall';

/** A scripted response and how its body ends. */
export interface ScriptedResponse {
  response: WireResponse;
  ending: BodyEnding;
}

/** What the kit's backend saw. */
export interface WireLog {
  /** The bodies of the requests received, as text. */
  bodies: string[];
}

function abortError(): DOMException {
  return new DOMException('This operation was aborted', 'AbortError');
}

/**
 * The kit's backend: answers each request with the next scripted response,
 * streaming its chunks one at a time; `cut` errors the body after the chunks
 * (a lost connection), `stall` sends nothing more until the request aborts.
 */
export function wireHandler(responses: ScriptedResponse[], log: WireLog) {
  return async (request: Request): Promise<Response> => {
    log.bodies.push(await request.text());
    const next = responses.shift();
    if (next === undefined) return new Response('{"error":"no reply scripted"}', { status: 500 });
    const { response, ending } = next;
    const encoder = new TextEncoder();
    const chunks = [...response.chunks];
    const signal = request.signal;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        signal.addEventListener('abort', () => {
          try {
            controller.error(abortError());
          } catch {
            // Already closed or errored.
          }
        });
      },
      async pull(controller) {
        // One chunk per pull, after a macrotask: the client sees each as its own read.
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (signal.aborted) return;
        const chunk = chunks.shift();
        if (chunk !== undefined) {
          controller.enqueue(encoder.encode(chunk));
          return;
        }
        if (ending === 'end') controller.close();
        else if (ending === 'cut') controller.error(new TypeError('terminated: the connection was lost'));
        else await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      },
    });
    return new Response(body, { status: response.status ?? 200, headers: response.headers ?? {} });
  };
}

/**
 * An endpoint for one check: with `serve`, a real server in front of the
 * handler; without, a `fetch` that calls it directly (no socket, any runtime).
 * `close` stops the server, if any.
 */
export async function wireEndpoint(
  handler: (request: Request) => Promise<Response>,
  serve: WireServe | undefined,
): Promise<Omit<WireEndpoint, 'answer'> & { close(): Promise<void> }> {
  if (serve !== undefined) {
    const served = await serve(handler);
    return { baseURL: served.baseURL, fetch: globalThis.fetch, close: served.close };
  }
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (init?.signal?.aborted === true) throw abortError();
    const request = new Request(input, init);
    return handler(request);
  };
  return {
    baseURL: 'http://conformance.test',
    fetch: fetch as typeof globalThis.fetch,
    close: async () => {},
  };
}
