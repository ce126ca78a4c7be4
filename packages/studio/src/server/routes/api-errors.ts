import { AgentError, checkSessionId } from '@agent-core/core';
import type { Context } from 'hono';
import type { StudioContext } from '../studio-context.js';
import { describeError } from '../view/describe-error.js';

/** Thrown by `sessionIdOf` for an id that is not a valid session id: answered 400, before any store call. */
class BadRequest extends Error {}

/** The `:id` of the path, checked with core's `checkSessionId` before the store ever sees it. */
export function sessionIdOf(context: Context): string {
  const id = context.req.param('id');
  try {
    checkSessionId(id);
  } catch {
    throw new BadRequest(
      `'${String(id).slice(0, 80)}' is not a session id: ids are 1 to 128 letters, digits, '.', '_' or '-'.`,
    );
  }
  return id;
}

/** Throws a 400 with `message`. */
export function badRequest(message: string): never {
  throw new BadRequest(message);
}

/**
 * The answer for an error a route met: 400 for bad input, 404 for an unknown
 * session, 503 while the store cannot be reached (the page shows a banner and
 * tries again), 500 otherwise; always a redacted sentence, and logged.
 */
export function failure(context: Context, error: unknown, studio: StudioContext): Response {
  if (error instanceof BadRequest) return context.json({ error: error.message }, 400);
  const message = describeError(error, studio.redactor);
  if (AgentError.isInstance(error)) {
    if (error.code === 'session_not_found') return context.json({ error: message, code: error.code }, 404);
    if (error.code === 'invalid_session_id') return context.json({ error: message, code: error.code }, 400);
    if (error.code.startsWith('session_storage'))
      return context.json({ error: message, code: error.code, store: true }, 503);
  }
  studio.logger.error('a studio request failed', { path: context.req.path, error: message });
  return context.json({ error: message }, 500);
}
