import {
  isContextOverflowMessage,
  type ProviderErrorKind,
  type ProviderErrorOptions,
  ProviderError,
  parseRetryAfter,
  providerErrorKindForStatus,
} from '@agent-core/core';
import type { APIError } from '@anthropic-ai/sdk';
import type { AnthropicSdk } from './load-sdk.js';
import type { ProviderNames } from './provider-label.js';

// Error types of the API's error bodies and of `error` events in a stream
// (which arrive after HTTP 200, so they carry no status).
const kindByErrorType: Record<string, ProviderErrorKind> = {
  overloaded_error: 'overloaded',
  rate_limit_error: 'rate_limit',
  api_error: 'server',
  timeout_error: 'server',
  authentication_error: 'auth',
  permission_error: 'auth',
  billing_error: 'fatal',
  invalid_request_error: 'invalid_request',
  not_found_error: 'invalid_request',
  request_too_large: 'invalid_request',
};

const advice: Partial<Record<ProviderErrorKind, string>> = {
  auth: 'Check the API key (the apiKey option or ANTHROPIC_API_KEY) and its permissions.',
  rate_limit: 'Wait and retry, or lower the request rate.',
  overloaded: 'The server is overloaded; retry later.',
  invalid_request: 'The request was refused as invalid; retrying will not help.',
  context_overflow:
    "The request is longer than the model's context window; set contextWindow on the Agent to compact the history.",
};

function headerValue(headers: Headers | undefined, name: string): string | undefined {
  const value = headers?.get(name);
  return value === null || value === undefined ? undefined : value;
}

/** Milliseconds to wait from `retry-after-ms` (Anthropic's) or the standard `retry-after`. */
export function retryAfterFromHeaders(headers: Headers | undefined): number | undefined {
  const milliseconds = Number(headerValue(headers, 'retry-after-ms'));
  if (
    headerValue(headers, 'retry-after-ms') !== undefined &&
    Number.isFinite(milliseconds) &&
    milliseconds >= 0
  ) {
    return Math.round(milliseconds);
  }
  return parseRetryAfter(headerValue(headers, 'retry-after'));
}

function bodyError(error: APIError): { type: string | undefined; message: string | undefined } {
  const body = error.error as { error?: { type?: unknown; message?: unknown } } | undefined;
  const type = typeof body?.error?.type === 'string' ? body.error.type : (error.type ?? undefined);
  const message = typeof body?.error?.message === 'string' ? body.error.message : undefined;
  return { type, message };
}

// llama.cpp's server states its context size and the prompt's tokens as fields of its error
// object, not in words; Anthropic's own figures are in the message, which core reads.
function llamaCppFigures(error: APIError): Pick<ProviderErrorOptions, 'contextLimit' | 'promptTokens'> {
  const fields = (error.error as { error?: { n_ctx?: unknown; n_prompt_tokens?: unknown } } | undefined)
    ?.error;
  return {
    ...(typeof fields?.n_ctx === 'number' ? { contextLimit: fields.n_ctx } : {}),
    ...(typeof fields?.n_prompt_tokens === 'number' ? { promptTokens: fields.n_prompt_tokens } : {}),
  };
}

function withAdvice(kind: ProviderErrorKind, text: string): string {
  const extra = advice[kind];
  if (extra === undefined) return text;
  return `${/[.!?]$/.test(text) ? text : `${text}.`} ${extra}`;
}

/**
 * Maps anything the SDK throws to a `ProviderError`: HTTP errors by status
 * (with Retry-After), `error` events of a stream by their type, connection
 * failures and timeouts to `network`, unparsable stream data to `malformed`.
 * Messages begin with `names.label`, who answered.
 */
export function toProviderError(error: unknown, sdk: AnthropicSdk, names: ProviderNames): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const { APIConnectionError, APIConnectionTimeoutError, APIError, AnthropicError } = sdk;
  const { provider, label } = names;
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError({
      kind: 'network',
      message: `${label} request timed out: ${error.message}`,
      provider,
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new ProviderError({
      kind: 'network',
      message: `Could not reach ${label} (${error.message}${cause}).`,
      provider,
      cause: error,
    });
  }
  if (error instanceof APIError) {
    const { type, message } = bodyError(error);
    const status = typeof error.status === 'number' ? error.status : undefined;
    const byStatusOrType: ProviderErrorKind =
      status !== undefined
        ? providerErrorKindForStatus(status)
        : ((type !== undefined ? kindByErrorType[type] : undefined) ?? 'server');
    // Anthropic refuses an over-long prompt as a 400 invalid_request_error saying "prompt is too long".
    const kind: ProviderErrorKind =
      byStatusOrType === 'invalid_request' && isContextOverflowMessage(message ?? error.message)
        ? 'context_overflow'
        : byStatusOrType;
    const where = status !== undefined ? `HTTP ${status}` : 'an error event in the stream';
    const what = message ?? error.message;
    return new ProviderError({
      kind,
      message: withAdvice(kind, `${label} error (${where}${type === undefined ? '' : `, ${type}`}): ${what}`),
      provider,
      cause: error,
      ...(status === undefined ? {} : { status }),
      ...(kind === 'rate_limit' || kind === 'overloaded' || kind === 'server'
        ? { retryAfterMs: retryAfterFromHeaders(error.headers) }
        : {}),
      ...(kind === 'context_overflow' ? llamaCppFigures(error) : {}),
    });
  }
  if (error instanceof SyntaxError) {
    return new ProviderError({
      kind: 'malformed',
      message: `${label} sent stream data that is not valid JSON: ${error.message}`,
      provider,
      cause: error,
    });
  }
  if (error instanceof AnthropicError) {
    return new ProviderError({
      kind: 'malformed',
      message: `Anthropic SDK error: ${error.message}`,
      provider,
      cause: error,
    });
  }
  // Anything else thrown while reading the body is the connection failing
  // (undici's "terminated", a reset socket).
  const text = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return new ProviderError({
    kind: 'network',
    message: `The connection to ${label} failed: ${text}${cause}`,
    provider,
    cause: error,
  });
}
