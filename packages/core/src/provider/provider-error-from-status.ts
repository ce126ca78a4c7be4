import { ProviderError } from './provider-error.js';
import { isContextOverflowMessage, parseRetryAfter, providerErrorKindForStatus } from './provider-error.js';

/** What `providerErrorFromStatus` takes besides the status and message. */
export interface HttpFailureOptions {
  /** The response's `Retry-After` header, read into `retryAfterMs`. */
  retryAfter?: string | null;
  /** The provider's name, for the error and its message. */
  provider?: string;
  /** The backend's own error code, when it has one (`context_length_exceeded` says an overflow too). */
  code?: string | null;
  cause?: unknown;
}

/**
 * The `ProviderError` for an HTTP failure of a backend: its kind from the
 * status (`providerErrorKindForStatus`), except a 4xx whose message or code
 * says the request is longer than the model's context window, which is
 * `context_overflow` (so a context window compacts and retries, where
 * `invalid_request` would end the run); `Retry-After` read into `retryAfterMs`.
 *
 * @example
 * const error = providerErrorFromStatus(response.status, await response.text(), { retryAfter: response.headers.get('retry-after'), provider: 'my-backend' });
 */
export function providerErrorFromStatus(
  status: number,
  message: string,
  options: HttpFailureOptions = {},
): ProviderError {
  const overflow =
    status >= 400 &&
    status < 500 &&
    (isContextOverflowMessage(message) || isContextOverflowMessage(options.code));
  const retryAfterMs = parseRetryAfter(options.retryAfter);
  return new ProviderError({
    kind: overflow ? 'context_overflow' : providerErrorKindForStatus(status),
    message,
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}
