/** How hard a reasoning model thinks before it answers (sent as `reasoning_effort` / `reasoning.effort`). */
export type OpenAIReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/** Which OpenAI HTTP API the provider speaks. */
export type OpenAIApi = 'chat' | 'responses';

/** Options of `openai()`. Every field is optional; nothing is read or built until the first request. */
export interface OpenAIOptions {
  /** API key. Defaults to `process.env.OPENAI_API_KEY`, read when a request is made. */
  apiKey?: string;
  /**
   * Base URL of any OpenAI-compatible server, e.g. `http://localhost:11434/v1` for Ollama.
   * With a custom base URL a missing key is fine: a placeholder is sent.
   */
  baseURL?: string;
  /** `chat` (Chat Completions, the default; what compatible servers speak) or `responses`. */
  api?: OpenAIApi;
  /** A `fetch` implementation to use instead of the global one (proxies, tests, edge runtimes). */
  fetch?: typeof globalThis.fetch;
  /** Extra headers sent with every request (e.g. OpenRouter's `HTTP-Referer`). */
  headers?: Record<string, string>;
  /** OpenAI organization id, sent as `OpenAI-Organization`. */
  organization?: string;
  /** Reasoning effort for reasoning models; also asks the Responses API for reasoning summaries. */
  reasoningEffort?: OpenAIReasoningEffort;
  /** Time limit of one HTTP request until its response starts, in milliseconds (the SDK's `timeout`). */
  timeoutMs?: number;
  /** Provider name reported in messages and errors. Defaults to `openai`. */
  name?: string;
  /**
   * Which Chat Completions field carries `maxTokens`. Defaults to `max_completion_tokens` on
   * OpenAI's own base URL (reasoning models reject `max_tokens`) and `max_tokens` on any other
   * base URL (what Ollama, llama.cpp server and older vLLM understand).
   */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
}
