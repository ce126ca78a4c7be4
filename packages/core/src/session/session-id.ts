import { InvalidSessionIdError } from '../errors/invalid-session-id-error.js';

const sessionIdPattern = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Throws `InvalidSessionIdError` unless `id` is 1 to 128 letters, digits,
 * `.`, `_` or `-` and not `.` or `..`; such an id is safe as a file name, a
 * key or a URL segment. An id is refused, never rewritten into another.
 */
export function checkSessionId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !sessionIdPattern.test(id) || id === '.' || id === '..') {
    throw new InvalidSessionIdError(id);
  }
}
