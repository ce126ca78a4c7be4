import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { StudioContext } from '../studio-context.js';
import type { BrowserSession } from './studio-access.js';

/** The page may load its own script, style and data, and nothing else; no inline script, no frames. */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Sets the security headers every answer carries. */
export function securityHeaders(): MiddlewareHandler {
  return async (context, next) => {
    await next();
    const headers = context.res.headers;
    headers.set('Content-Security-Policy', contentSecurityPolicy);
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('X-Frame-Options', 'DENY');
    // The first address holds the token: no page it links to may learn it.
    headers.set('Referrer-Policy', 'no-referrer');
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Cross-Origin-Resource-Policy', 'same-origin');
    if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  };
}

/**
 * Refuses, before anything else runs: a `Host` the studio does not answer
 * (DNS rebinding), a request without the cookie the token was exchanged for,
 * and a change (POST and the like) whose `Origin` is not the studio's own or
 * that lacks the page's CSRF token. `/` with the token is the one way in.
 */
export function guardRequests(
  studio: StudioContext,
): MiddlewareHandler<{ Variables: { browser: BrowserSession } }> {
  return async (context, next) => {
    const host = context.req.header('host')?.toLowerCase();
    if (host === undefined || !studio.hosts.has(host))
      return refuse(
        context,
        421,
        `This studio does not answer for the host '${host ?? ''}'. Open the address it printed.`,
      );
    const path = context.req.path;
    const browser = studio.access.session(getCookie(context, studio.access.cookieName));
    if (browser === undefined) {
      // The one way in: the printed address, whose token is checked by the page route.
      if (path === '/' && context.req.method === 'GET') return next();
      return refuse(
        context,
        401,
        'Open the address the studio printed (with its token) to sign this browser in.',
      );
    }
    if (unsafeMethods.has(context.req.method)) {
      const origin = context.req.header('origin');
      if (origin !== `http://${host}`)
        return refuse(
          context,
          403,
          `A change must come from the studio's own page; origin '${origin ?? 'none'}' was refused.`,
        );
      const site = context.req.header('sec-fetch-site');
      if (site !== undefined && site !== 'same-origin')
        return refuse(
          context,
          403,
          "A change must come from the studio's own page; a cross-site request was refused.",
        );
      if (!studio.access.csrfMatches(browser, context.req.header('x-csrf-token')))
        return refuse(
          context,
          403,
          "The request lacks the page's CSRF token; reload the page and try again.",
        );
    }
    context.set('browser', browser);
    return next();
  };
}

function refuse(context: Context, status: 401 | 403 | 421, message: string): Response {
  if (context.req.path.startsWith('/api/')) return context.json({ error: message }, status);
  return context.html(plainPage(message), status);
}

/** A page with one sentence on it, for refusals: no script, nothing from the request but escaped text. */
export function plainPage(message: string): string {
  const escaped = message.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>agent-core studio</title></head><body><main><h1>agent-core studio</h1><p>${escaped}</p></main></body></html>`;
}
