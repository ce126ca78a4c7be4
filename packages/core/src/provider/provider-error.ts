import { AgentError } from '../errors/agent-error.js';
import { redactSecrets } from '../observability/redact-secrets.js';

/** What kind of failure a provider hit; decides whether a retry can help. */
export type ProviderErrorKind =
  | 'rate_limit'
  | 'overloaded'
  | 'server'
  | 'network'
  | 'malformed'
  | 'auth'
  | 'invalid_request'
  /** The request is longer than the model's context window; compacting the history can help, retrying as is cannot. */
  | 'context_overflow'
  | 'fatal';

const kinds: ReadonlySet<string> = new Set<ProviderErrorKind>([
  'rate_limit',
  'overloaded',
  'server',
  'network',
  'malformed',
  'auth',
  'invalid_request',
  'fatal',
]);

/** True when `value` names a ProviderErrorKind. */
export function isProviderErrorKind(value: string): value is ProviderErrorKind {
  return kinds.has(value);
}

const retryableKinds: ReadonlySet<ProviderErrorKind> = new Set([
  'rate_limit',
  'overloaded',
  'server',
  'network',
  'malformed',
]);

/** The fields of a ProviderError. */
export interface ProviderErrorOptions {
  kind: ProviderErrorKind;
  message: string;
  /** Defaults to true for rate_limit, overloaded, server, network and malformed. */
  retryable?: boolean;
  /** HTTP status, when the failure came from an HTTP response. */
  status?: number;
  /** From the Retry-After header, in milliseconds. */
  retryAfterMs?: number;
  /** Name of the provider that failed. */
  provider?: string;
  cause?: unknown;
}

/**
 * A failed model call. Providers report it as an `{ type: 'error' }` model
 * event; core retries it when `retryable`, then falls back, then ends the run.
 * Its message passes through `redactSecrets`, so no API key or authorization header survives in it.
 */
export class ProviderError extends AgentError {
  readonly kind: ProviderErrorKind;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly provider: string | undefined;

  constructor(options: ProviderErrorOptions) {
    // Provider and SDK messages may echo a request's headers or key: none of it reaches a log, event or store.
    super(`provider_${options.kind}`, redactSecrets(options.message), { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = options.kind;
    this.retryable = options.retryable ?? retryableKinds.has(options.kind);
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.provider = options.provider;
  }

  /** True for a ProviderError from any copy of the package. */
  static override isInstance(value: unknown): value is ProviderError {
    return (
      AgentError.isInstance(value) &&
      typeof (value as { kind?: unknown }).kind === 'string' &&
      value.code.startsWith('provider_')
    );
  }

  override toJSON(): {
    name: string;
    code: string;
    message: string;
    kind: ProviderErrorKind;
    status?: number;
  } {
    return {
      ...super.toJSON(),
      kind: this.kind,
      ...(this.status === undefined ? {} : { status: this.status }),
    };
  }
}

// What OpenAI, Anthropic and the compatible servers (vLLM, llama.cpp, Ollama, OpenRouter) say when a
// request does not fit the model's context window.
const contextOverflowPattern =
  /prompt is too long|context[_ ]length[_ ]exceeded|maximum context length|context length|context window|too many tokens|exceeds? the available context size|exceed_context_size/i;

/**
 * True when a provider's error message or code says the request is longer
 * than the model's context window, in the words of Anthropic, OpenAI or an
 * OpenAI-compatible server. Providers use it to report `context_overflow`.
 */
export function isContextOverflowMessage(text: string | undefined | null): boolean {
  return typeof text === 'string' && contextOverflowPattern.test(text);
}

/** Maps an HTTP status to the kind of provider error it means. */
export function providerErrorKindForStatus(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  if (status === 529 || status === 503) return 'overloaded';
  if (status >= 500) return 'server';
  if (status === 408) return 'network';
  if (status >= 400) return 'invalid_request';
  return 'fatal';
}

/**
 * Parses a `Retry-After` header (seconds or an HTTP date) into milliseconds.
 * A `retry-after-ms` header is already in milliseconds: use its number as is.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
