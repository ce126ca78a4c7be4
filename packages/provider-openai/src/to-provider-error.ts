import {
  isContextOverflowMessage,
  ProviderError,
  parseRetryAfter,
  providerErrorKindForStatus,
} from '@agent-core/core';
import type { ProviderErrorKind, ProviderErrorOptions } from '@agent-core/core';
import { loadedSdk } from './load-sdk.js';

// Error `type` / `code` strings that OpenAI and compatible servers send in error bodies and in-stream errors.
const kindsByCode: Record<string, ProviderErrorKind> = {
  rate_limit_exceeded: 'rate_limit',
  rate_limit_error: 'rate_limit',
  requests: 'rate_limit',
  tokens: 'rate_limit',
  overloaded: 'overloaded',
  overloaded_error: 'overloaded',
  server_overloaded: 'overloaded',
  // OpenAI's own, in a stream that began with HTTP 200: type service_unavailable_error, code server_is_overloaded.
  server_is_overloaded: 'overloaded',
  service_unavailable: 'overloaded',
  service_unavailable_error: 'overloaded',
  server_error: 'server',
  internal_error: 'server',
  internal_server_error: 'server',
  api_error: 'server',
  invalid_request_error: 'invalid_request',
  invalid_prompt: 'invalid_request',
  context_length_exceeded: 'context_overflow',
  // llama.cpp server's error type for a prompt longer than its context.
  exceed_context_size_error: 'context_overflow',
  invalid_api_key: 'auth',
  authentication_error: 'auth',
  permission_error: 'auth',
  permission_denied: 'auth',
};

/**
 * The error kind for an error that arrived inside a stream (after HTTP 200), from
 * its `code`, `type` or numeric status. Unknown ones count as `server` errors:
 * the request was accepted, so a retry is the likeliest help.
 */
export function providerErrorKindForCode(code: unknown, type?: unknown): ProviderErrorKind {
  for (const value of [code, type]) {
    if (typeof value === 'number' && value >= 400) return providerErrorKindForStatus(value);
    if (typeof value === 'string') {
      const kind = kindsByCode[value];
      if (kind !== undefined) return kind;
      const status = Number(value);
      if (Number.isInteger(status) && status >= 400) return providerErrorKindForStatus(status);
    }
  }
  return 'server';
}

/**
 * `context_overflow` instead of a refused request or an unknown in-stream
 * error when the message says the prompt did not fit (vLLM, llama.cpp and
 * other compatible servers say so in words rather than with a code).
 */
export function withContextOverflow(kind: ProviderErrorKind, message: unknown): ProviderErrorKind {
  if (kind !== 'invalid_request' && kind !== 'server') return kind;
  return typeof message === 'string' && isContextOverflowMessage(message) ? 'context_overflow' : kind;
}

function retryAfterOf(headers: Headers | undefined): number | undefined {
  if (headers === undefined) return undefined;
  // OpenAI sends `retry-after-ms` (milliseconds) besides the standard `retry-after`.
  const milliseconds = Number(headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return Math.round(milliseconds);
  return parseRetryAfter(headers.get('retry-after'));
}

const hints: Partial<Record<ProviderErrorKind, string>> = {
  context_overflow:
    "The request is longer than the model's context window; set contextWindow on the Agent to compact the history",
  auth: 'Check the API key (OPENAI_API_KEY or the apiKey option) and its permissions.',
  rate_limit: 'The server asked to slow down; retry later.',
};

function withHint(kind: ProviderErrorKind, message: string): string {
  const hint = hints[kind];
  return hint === undefined ? message : `${message}. ${hint}`;
}

function isSocketFailure(error: Error): boolean {
  // undici reports a connection closed mid-body as `TypeError: terminated` with a socket error as cause.
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return (
    error.message === 'terminated' ||
    (typeof cause?.code === 'string' &&
      /^(UND_ERR_|ECONN|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN)/.test(cause.code))
  );
}

// Names the provider on errors raised before it was known (argument parsing, an early stream end).
function named(error: ProviderError, provider: string, label: string): ProviderError {
  return new ProviderError({
    kind: error.kind,
    message: error.message.startsWith(`${label}:`) ? error.message : `${label}: ${error.message}`,
    retryable: error.retryable,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    provider,
    cause: error.cause,
    ...overflowFigures(error),
  });
}

// llama.cpp states its context size and the prompt's tokens as fields of its error body, not in words.
function llamaCppFigures(body: unknown): Pick<ProviderErrorOptions, 'contextLimit' | 'promptTokens'> {
  const fields = body as { n_ctx?: unknown; n_prompt_tokens?: unknown } | null | undefined;
  return {
    ...(typeof fields?.n_ctx === 'number' ? { contextLimit: fields.n_ctx } : {}),
    ...(typeof fields?.n_prompt_tokens === 'number' ? { promptTokens: fields.n_prompt_tokens } : {}),
  };
}

function overflowFigures(error: ProviderError): Partial<ProviderErrorOptions> {
  return {
    ...(error.contextLimit === undefined ? {} : { contextLimit: error.contextLimit }),
    ...(error.promptTokens === undefined ? {} : { promptTokens: error.promptTokens }),
    ...(error.reservedOutputTokens === undefined ? {} : { reservedOutputTokens: error.reservedOutputTokens }),
  };
}

/**
 * Maps anything the SDK or the stream threw to a `ProviderError`: HTTP errors
 * by status (with Retry-After), in-stream errors by code, connection failures
 * and timeouts as `network`, unparsable chunks as `malformed`. `provider` is
 * the provider's name; messages begin with `label`, who answered.
 */
export function toProviderError(error: unknown, provider: string, label = provider): ProviderError {
  if (ProviderError.isInstance(error))
    return error.provider === undefined ? named(error, provider, label) : error;
  const sdk = loadedSdk();
  if (sdk !== undefined && error instanceof sdk.APIConnectionTimeoutError) {
    return new ProviderError({
      kind: 'network',
      message: `${label}: the request timed out before the server answered`,
      provider,
      cause: error,
    });
  }
  if (sdk !== undefined && error instanceof sdk.APIConnectionError) {
    const detail = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return new ProviderError({
      kind: 'network',
      message: `${label}: could not reach the server${detail}`,
      provider,
      cause: error,
    });
  }
  if (sdk !== undefined && error instanceof sdk.APIError) {
    if (typeof error.status === 'number') {
      const byStatus = providerErrorKindForStatus(error.status);
      // Only a refused request (400, 413) can be an overflow: a 429's "tokens per minute" is a rate limit.
      const kind =
        byStatus === 'invalid_request' &&
        (error.code === 'context_length_exceeded' || error.type === 'exceed_context_size_error')
          ? 'context_overflow'
          : withContextOverflow(byStatus, error.message);
      // A 429 for an exhausted quota will not pass by waiting: do not retry it.
      const quota = error.code === 'insufficient_quota';
      return new ProviderError({
        kind,
        message: quota
          ? `${label}: HTTP ${error.message}. The account's quota is used up; check its plan and billing.`
          : withHint(kind, `${label}: HTTP ${error.message}`),
        ...(quota ? { retryable: false } : {}),
        status: error.status,
        retryAfterMs: retryAfterOf(error.headers),
        provider,
        cause: error,
        ...(kind === 'context_overflow' ? llamaCppFigures(error.error) : {}),
      });
    }
    // No status: the server sent an error object inside a stream that began with HTTP 200.
    const kind = withContextOverflow(providerErrorKindForCode(error.code, error.type), error.message);
    return new ProviderError({
      kind,
      message: withHint(kind, `${label}: error in the stream: ${error.message}`),
      provider,
      cause: error,
      ...(kind === 'context_overflow' ? llamaCppFigures(error.error) : {}),
    });
  }
  if (error instanceof SyntaxError) {
    return new ProviderError({
      kind: 'malformed',
      message: `${label}: the server sent a stream chunk that is not valid JSON (${error.message})`,
      provider,
      cause: error,
    });
  }
  if (error instanceof Error && isSocketFailure(error)) {
    return new ProviderError({
      kind: 'network',
      message: `${label}: the connection was lost mid-stream`,
      provider,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError({ kind: 'fatal', message: `${label}: ${message}`, provider, cause: error });
}
