/**
 * Extended thinking: `{ budgetTokens }` turns on thinking with that many
 * tokens for reasoning (at least 1024); `'adaptive'` lets the model decide,
 * as Claude 4.6 and later models prefer.
 */
export type AnthropicThinking = { budgetTokens: number } | 'adaptive';

/** Where prompt caching puts its `cache_control` breakpoints. */
export interface PromptCachingOptions {
  /** On the system prompt (default true). */
  system?: boolean;
  /** On the last tool definition, which caches every tool (default true). */
  tools?: boolean;
  /** On the last block of the last message, which caches the conversation so far (default true). */
  messages?: boolean;
}

/** Options of `anthropic()`. Every field is optional. */
export interface AnthropicOptions {
  /** API key; when absent, `ANTHROPIC_API_KEY` is read each time a request is made. */
  apiKey?: string;
  /** API base URL, for proxies and gateways; the SDK's default is `https://api.anthropic.com`. */
  baseURL?: string;
  /**
   * Provider name on messages (`message.provider`) and errors, and the start of error messages.
   * Default `anthropic`; error messages then say `Anthropic API`, or the base URL's host when
   * it is not Anthropic's (a proxy, llama.cpp's server).
   */
  name?: string;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
  /** Headers added to every request, such as `anthropic-beta`. */
  headers?: Record<string, string>;
  /**
   * `max_tokens` when a request sets no `maxTokens`. Default: the model's
   * output cap from `modelInfo`, at most 32,000 (a larger reservation counts
   * against output rate limits), or 4,096 for unknown models.
   */
  defaultMaxTokens?: number;
  /** Turns on extended thinking. */
  thinking?: AnthropicThinking;
  /**
   * Prompt caching: `true` puts breakpoints on the system prompt, the last
   * tool and the last message; an object picks which. Default off.
   */
  promptCaching?: boolean | PromptCachingOptions;
  /**
   * How long to wait for the response to begin, and then for each next event
   * of the stream, in milliseconds. Default 600,000 (ten minutes).
   */
  timeoutMs?: number;
}
