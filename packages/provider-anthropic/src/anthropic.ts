import {
  ConfigError,
  type ModelEvent,
  type ModelInfo,
  type ModelRequest,
  type Provider,
  ProviderError,
  type StreamOptions,
} from '@agent-core/core';
import type Anthropic from '@anthropic-ai/sdk';
import type { AnthropicOptions } from './anthropic-options.js';
import { type AnthropicSdk, loadSdk } from './load-sdk.js';
import { anthropicModelInfo } from './model-info.js';
import { type ProviderNames, providerLabel } from './provider-label.js';
import { streamAnthropic } from './stream-anthropic.js';
import { anthropicProviderName } from './to-anthropic-messages.js';
import { toAnthropicRequest } from './to-anthropic-request.js';
import { toProviderError } from './to-provider-error.js';

/** The provider `anthropic()` returns: a core `Provider` with token counting and model info. */
export interface AnthropicProvider extends Provider {
  /** `anthropic`, or the `name` option. */
  readonly name: string;
  /** Counts the input tokens of a request with the API's token counting endpoint. Rejects with a `ProviderError`. */
  countTokens(request: ModelRequest): Promise<number>;
  /** Context window, output cap and prices of a Claude model; undefined for unknown models. */
  modelInfo(model: string): ModelInfo | undefined;
}

const defaultTimeoutMs = 600_000;

function checkOptions(options: AnthropicOptions): void {
  const positive = (name: string, value: unknown): void => {
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)) {
      throw new ConfigError(`anthropic(): ${name} must be a positive integer, got ${String(value)}.`);
    }
  };
  positive('defaultMaxTokens', options.defaultMaxTokens);
  positive('timeoutMs', options.timeoutMs);
  const thinking = options.thinking;
  if (thinking !== undefined && thinking !== 'adaptive') {
    if (typeof thinking !== 'object' || thinking === null || typeof thinking.budgetTokens !== 'number') {
      throw new ConfigError("anthropic(): thinking must be { budgetTokens: number } or 'adaptive'.");
    }
    if (!Number.isInteger(thinking.budgetTokens) || thinking.budgetTokens < 1024) {
      throw new ConfigError(
        `anthropic(): thinking.budgetTokens must be an integer of at least 1024 (the API's minimum), got ${thinking.budgetTokens}.`,
      );
    }
  }
  if (options.apiKey !== undefined && typeof options.apiKey !== 'string') {
    throw new ConfigError('anthropic(): apiKey must be a string.');
  }
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name === '')) {
    throw new ConfigError(
      `anthropic(): name must be a non-empty string, got ${JSON.stringify(options.name)}.`,
    );
  }
}

function missingKeyError(provider: string): ProviderError {
  return new ProviderError({
    kind: 'auth',
    message:
      'No Anthropic API key: set the ANTHROPIC_API_KEY environment variable or pass apiKey to anthropic({ apiKey }).',
    provider,
  });
}

/**
 * Creates a provider for Anthropic's Claude models on the official SDK. No
 * client is built and no environment variable is read until the first request.
 *
 * @example
 * import { anthropic } from '@agent-core/provider-anthropic';
 * const provider = anthropic({ promptCaching: true });
 * for await (const event of provider.stream({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Hi' }] })) {
 *   if (event.type === 'text_delta') process.stdout.write(event.delta);
 * }
 */
export function anthropic(options: AnthropicOptions = {}): AnthropicProvider {
  checkOptions(options);
  const name = options.name ?? anthropicProviderName;
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const settings = {
    providerName: name,
    defaultMaxTokens: options.defaultMaxTokens,
    thinking: options.thinking,
    promptCaching: options.promptCaching,
  };
  let client: Anthropic | undefined;
  let clientKey: string | undefined;
  let names: ProviderNames = { provider: name, label: providerLabel(options.name, options.baseURL) };

  // The key is looked up on every request, so a key set or rotated in the
  // environment after construction is used; the client is rebuilt only when
  // the key changes.
  async function clientForRequest(): Promise<
    { sdk: AnthropicSdk; client: Anthropic; names: ProviderNames } | ProviderError
  > {
    const apiKey = options.apiKey ?? process.env.ANTHROPIC_API_KEY;
    if (apiKey === undefined || apiKey === '') return missingKeyError(name);
    const sdk = await loadSdk();
    if (client === undefined || clientKey !== apiKey) {
      client = new sdk.Anthropic({
        apiKey,
        // Only the key authenticates: an ANTHROPIC_AUTH_TOKEN in the
        // environment must not add a second credential.
        authToken: null,
        ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
        timeout: timeoutMs,
        // Core retries with backoff and fallback; retries live in one layer.
        maxRetries: 0,
        // Failures reach the caller as error events. The SDK's own logging would print them
        // again, with the raw stream data (the model's output) on the console.
        logLevel: 'off',
      });
      clientKey = apiKey;
      // The SDK resolves the base URL (the option, ANTHROPIC_BASE_URL, or Anthropic's): name who answers by it.
      names = { provider: name, label: providerLabel(options.name, client.baseURL) };
    }
    return { sdk, client, names };
  }

  return {
    name,
    stream(request: ModelRequest, streamOptions?: StreamOptions): AsyncIterable<ModelEvent> {
      return streamAnthropic(
        { settings, timeoutMs, provider: name, client: clientForRequest },
        request,
        streamOptions?.signal,
      );
    },
    async countTokens(request: ModelRequest): Promise<number> {
      const resolved = await clientForRequest();
      if (resolved instanceof ProviderError) throw resolved;
      const body = toAnthropicRequest(request, settings);
      try {
        const counted = await resolved.client.messages.countTokens({
          model: body.model,
          messages: body.messages,
          ...(body.system === undefined ? {} : { system: body.system }),
          ...(body.tools === undefined ? {} : { tools: body.tools }),
          ...(body.tool_choice === undefined ? {} : { tool_choice: body.tool_choice }),
          ...(body.thinking === undefined ? {} : { thinking: body.thinking }),
        });
        return counted.input_tokens;
      } catch (error) {
        throw toProviderError(error, resolved.sdk, resolved.names);
      }
    },
    modelInfo: anthropicModelInfo,
  };
}
