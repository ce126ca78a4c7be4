import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { LiveUpdate } from '../../shared/studio-data.js';
import { SessionFeed } from '../live/session-feed.js';
import type { BrowserSession } from '../security/studio-access.js';
import type { StudioContext } from '../studio-context.js';
import { failure, sessionIdOf } from './api-errors.js';

type Env = { Variables: { browser: BrowserSession } };

/** Live streams open at once; past this a new one is refused (each polls the store). */
const streamLimit = 64;
/** A comment line this often keeps proxies and the browser from closing an idle stream. */
const keepAliveMs = 15_000;

/**
 * `GET /api/sessions/:id/live?fromSeq=N&messages=M`: server-sent events, one
 * `LiveUpdate` each, from the log record after `fromSeq` on. The stream polls
 * the store every `pollIntervalMs` (runs in any process) and is poked at once
 * by runs in the studio's own process.
 */
export function liveRoute(app: Hono<Env>, studio: StudioContext): void {
  app.get('/api/sessions/:id/live', (context) => {
    let id: string;
    try {
      id = sessionIdOf(context);
    } catch (error) {
      return failure(context, error, studio);
    }
    if (studio.feeds.size >= streamLimit)
      return context.json({ error: `The studio has ${streamLimit} live pages open; close some.` }, 503);
    const fromSeq = Math.max(0, Math.floor(Number(context.req.query('fromSeq') ?? 0)) || 0);
    const messageCount = Math.max(0, Math.floor(Number(context.req.query('messages') ?? 0)) || 0);
    return streamSSE(context, async (stream) => {
      const pending: LiveUpdate[] = [];
      let wake: (() => void) | undefined;
      const send = (update: LiveUpdate) => {
        pending.push(update);
        wake?.();
      };
      const feed = new SessionFeed({
        store: studio.store,
        sessionId: id,
        fromSeq,
        messageCount,
        redactor: studio.redactor,
        send,
      });
      const close = studio.feeds.open(id, feed, send);
      let open = true;
      stream.onAbort(() => {
        open = false;
        wake?.();
      });
      const poller = setInterval(() => void feed.poll(), studio.pollIntervalMs);
      poller.unref();
      let lastWrite = Date.now();
      try {
        void feed.poll();
        while (open) {
          if (pending.length === 0) {
            await new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, keepAliveMs).unref();
            });
            wake = undefined;
          }
          if (!open) break;
          if (pending.length === 0 && Date.now() - lastWrite >= keepAliveMs) {
            await stream.write(': keep-alive\n\n');
            lastWrite = Date.now();
            continue;
          }
          for (const update of pending.splice(0))
            await stream.writeSSE({ event: update.type, data: JSON.stringify(update) });
          lastWrite = Date.now();
        }
      } finally {
        clearInterval(poller);
        close();
      }
    });
  });
}
