import { AgentError } from '../errors/agent-error.js';
import { redactSecrets } from '../logger/redact-secrets.js';

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
  'context_overflow',
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
  /**
   * With `context_overflow`: the model's context window in tokens, as the refusal names it.
   * Read from the message when not given (OpenAI, vLLM, Anthropic and llama.cpp word it so).
   */
  contextLimit?: number;
  /** With `context_overflow`: the refused request's input tokens, as the provider counted them. */
  promptTokens?: number;
  /**
   * With `context_overflow`: the output tokens the refused request reserved (its `max_tokens`)
   * when the refusal counted them against the limit, as OpenAI's and Anthropic's may.
   */
  reservedOutputTokens?: number;
  cause?: unknown;
}

/** The figures a context overflow refusal states; each is absent when the refusal does not say. */
interface OverflowFigures {
  contextLimit?: number;
  promptTokens?: number;
  reservedOutputTokens?: number;
}

// The refusals' own words, each with which number is which. Thousands separators are allowed.
const figurePatterns: { pattern: RegExp; fields: (keyof OverflowFigures)[] }[] = [
  // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
  {
    pattern: /prompt is too long: ([\d,]+) tokens > ([\d,]+) maximum/i,
    fields: ['promptTokens', 'contextLimit'],
  },
  // Anthropic: "input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000"
  {
    pattern: /exceed context limit: ([\d,]+) \+ ([\d,]+) > ([\d,]+)/i,
    fields: ['promptTokens', 'reservedOutputTokens', 'contextLimit'],
  },
  // llama.cpp server: "request (5120 tokens) exceeds the available context size (4096 tokens)"
  {
    pattern: /request \(([\d,]+) tokens\) exceeds the available context size \(([\d,]+) tokens\)/i,
    fields: ['promptTokens', 'contextLimit'],
  },
  // OpenAI and vLLM: "This model's maximum context length is 128000 tokens."
  { pattern: /maximum context length is ([\d,]+) tokens/i, fields: ['contextLimit'] },
  // "... you requested 5120 tokens (4096 in the messages, 1024 in the completion)"
  {
    pattern: /([\d,]+) in (?:the messages|your prompt)[,;] ([\d,]+) (?:in|for) the completion/i,
    fields: ['promptTokens', 'reservedOutputTokens'],
  },
  // "However, your messages resulted in 130412 tokens."
  { pattern: /messages resulted in ([\d,]+) tokens/i, fields: ['promptTokens'] },
  // vLLM: "However, your request has 40000 input tokens."
  { pattern: /request has ([\d,]+) input tokens/i, fields: ['promptTokens'] },
];

/** The figures an overflow message states, each read by the first pattern that names it. */
function overflowFigures(message: string): OverflowFigures {
  const figures: OverflowFigures = {};
  for (const { pattern, fields } of figurePatterns) {
    const match = pattern.exec(message);
    if (match === null) continue;
    fields.forEach((field, index) => {
      const value = Number((match[index + 1] ?? '').replaceAll(',', ''));
      if (figures[field] === undefined && Number.isSafeInteger(value) && value > 0) figures[field] = value;
    });
  }
  return figures;
}

function tokenCount(value: number | undefined): number | undefined {
  return value !== undefined && Number.isSafeInteger(value) && value > 0 ? value : undefined;
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
  /** With `context_overflow`, the model's context window in tokens when the refusal names it. */
  readonly contextLimit: number | undefined;
  /** With `context_overflow`, the refused request's input tokens as the provider counted them, when stated. */
  readonly promptTokens: number | undefined;
  /** With `context_overflow`, the output tokens the refused request reserved, when the refusal counted them. */
  readonly reservedOutputTokens: number | undefined;

  constructor(options: ProviderErrorOptions) {
    // Provider and SDK messages may echo a request's headers or key: none of it reaches a log, event or store.
    super(`provider_${options.kind}`, redactSecrets(options.message), { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = options.kind;
    this.retryable = options.retryable ?? retryableKinds.has(options.kind);
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.provider = options.provider;
    const stated: OverflowFigures = options.kind === 'context_overflow' ? overflowFigures(this.message) : {};
    this.contextLimit = tokenCount(options.contextLimit) ?? stated.contextLimit;
    this.promptTokens = tokenCount(options.promptTokens) ?? stated.promptTokens;
    this.reservedOutputTokens = tokenCount(options.reservedOutputTokens) ?? stated.reservedOutputTokens;
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
    contextLimit?: number;
    promptTokens?: number;
    reservedOutputTokens?: number;
  } {
    return {
      ...super.toJSON(),
      kind: this.kind,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.contextLimit === undefined ? {} : { contextLimit: this.contextLimit }),
      ...(this.promptTokens === undefined ? {} : { promptTokens: this.promptTokens }),
      ...(this.reservedOutputTokens === undefined ? {} : { reservedOutputTokens: this.reservedOutputTokens }),
    };
  }
}

// What OpenAI, Anthropic and the compatible servers (vLLM, llama.cpp, Ollama, OpenRouter) say when a
// request does not fit the model's context window.
const contextOverflowPattern =
  /prompt is too long|context[_ ]length[_ ]exceeded|maximum context length|context length|context window|too many tokens|exceeds? the available context size|exceed_context_size|exceed context limit/i;

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
