import { ProviderError } from '@agent-core/core';
import type { ModelEvent, ModelInfo, ModelRequest, Provider, StreamOptions } from '@agent-core/core';
import type { OpenAI } from 'openai';
import { streamChat } from './chat/stream-chat.js';
import { openaiModelInfo } from './model-info.js';
import type { OpenAIOptions } from './openai-options.js';
import { streamResponses } from './responses/stream-responses.js';
import { toResponsesInput } from './responses/to-responses-request.js';
import { loadSdk } from './load-sdk.js';
import { toProviderError } from './to-provider-error.js';

const defaultBaseURL = 'https://api.openai.com/v1';
// Local servers (Ollama, vLLM, llama.cpp server) ignore the key, but the SDK needs a non-empty one.
const placeholderKey = 'not-needed';

function isDefaultBaseURL(baseURL: string | undefined): boolean {
  return baseURL === undefined || baseURL.replace(/\/+$/, '') === defaultBaseURL;
}

/**
 * Who answers, as messages name it: the `name` option, else `openai` on OpenAI's own URL,
 * else the server's host (`localhost:8080`), so an error from llama.cpp or a proxy does
 * not read as OpenAI's.
 */
function labelOf(options: OpenAIOptions): string {
  if (options.name !== undefined) return options.name;
  if (isDefaultBaseURL(options.baseURL)) return 'openai';
  try {
    return new URL(options.baseURL as string).host || (options.baseURL as string);
  } catch {
    return options.baseURL as string;
  }
}

/** An OpenAI provider: `Provider` plus `countTokens` when it speaks the Responses API. */
export type OpenAIProvider = Provider & {
  /** Context window, output cap and prices of an OpenAI model, or undefined when unknown. */
  modelInfo(model: string): ModelInfo | undefined;
};

/**
 * Builds a provider on the official `openai` SDK that speaks Chat Completions
 * (default) or the Responses API, to OpenAI or any OpenAI-compatible server.
 *
 * Contract:
 * - Cheap: no client is built and no environment is read until the first request.
 * - `stream()` never throws; failures end in one `error` event with a `ProviderError`.
 * - The SDK never retries (`maxRetries: 0`): core's retry loop is the only one.
 *
 * @example
 * const provider = openai({ api: 'responses', reasoningEffort: 'low' });
 * const local = openai({ baseURL: 'http://localhost:11434/v1', name: 'ollama' });
 */
export function openai(options: OpenAIOptions = {}): OpenAIProvider {
  const name = options.name ?? 'openai';
  const label = labelOf(options);
  const api = options.api ?? 'chat';
  const maxTokensField =
    options.maxTokensField ?? (isDefaultBaseURL(options.baseURL) ? 'max_completion_tokens' : 'max_tokens');
  let client: OpenAI | undefined;
  let clientKey: string | undefined;

  // Built on first use; rebuilt only if the environment's key changed since.
  const clientFor = async (apiKey: string): Promise<OpenAI> => {
    if (client !== undefined && clientKey === apiKey) return client;
    const { OpenAI } = await loadSdk();
    client = new OpenAI({
      apiKey,
      baseURL: options.baseURL ?? defaultBaseURL,
      ...(options.organization === undefined ? {} : { organization: options.organization }),
      maxRetries: 0,
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
      // Failures reach the caller as error events; the SDK's own console logging would repeat them.
      logLevel: 'off',
    });
    clientKey = apiKey;
    return client;
  };

  const resolveKey = (): string | ProviderError => {
    const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
    if (apiKey !== undefined && apiKey !== '') return apiKey;
    if (!isDefaultBaseURL(options.baseURL)) return placeholderKey;
    return new ProviderError({
      kind: 'auth',
      message: `${name}: no API key. Set OPENAI_API_KEY or pass apiKey to openai({ apiKey }).`,
      provider: name,
    });
  };

  const modelInfo = (model: string) => openaiModelInfo(model);

  async function* stream(
    request: ModelRequest,
    streamOptions: StreamOptions = {},
  ): AsyncGenerator<ModelEvent> {
    const signal = streamOptions.signal;
    if (signal?.aborted) {
      yield {
        type: 'done',
        message: {
          role: 'assistant',
          content: [],
          stopReason: 'aborted',
          provider: name,
          model: request.model,
        },
      };
      return;
    }
    const apiKey = resolveKey();
    if (typeof apiKey !== 'string') {
      yield { type: 'error', error: apiKey };
      return;
    }
    let sdk: OpenAI;
    try {
      sdk = await clientFor(apiKey);
    } catch (error) {
      yield { type: 'error', error: toProviderError(error, name, label) };
      return;
    }
    // The SDK leaves a listener on the signal it is given after each request; one run's signal
    // serves many calls, so hand it a signal of its own per call and link the two here.
    const controller = new AbortController();
    const forwardAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forwardAbort, { once: true });
    const context = {
      client: sdk,
      signal: controller.signal,
      providerName: name,
      label,
      reasoningEffort: options.reasoningEffort,
      modelInfo: modelInfo(request.model),
    };
    try {
      if (api === 'responses') yield* streamResponses(request, context);
      else yield* streamChat(request, { ...context, maxTokensField });
    } finally {
      signal?.removeEventListener('abort', forwardAbort);
    }
  }

  const provider: OpenAIProvider = { name, stream, modelInfo };
  if (api === 'responses') {
    provider.countTokens = async (request: ModelRequest): Promise<number> => {
      const apiKey = resolveKey();
      if (typeof apiKey !== 'string') throw apiKey;
      const settings = { providerName: name, reasoningEffort: options.reasoningEffort };
      try {
        const counted = await (await clientFor(apiKey)).responses.inputTokens.count({
          model: request.model,
          input: toResponsesInput(request, settings),
          ...(request.system === undefined ? {} : { instructions: request.system }),
          ...(request.tools === undefined || request.tools.length === 0
            ? {}
            : {
                tools: request.tools.map((tool) => ({
                  type: 'function' as const,
                  name: tool.name,
                  description: tool.description,
                  parameters: tool.parameters,
                  strict: false,
                })),
              }),
        });
        return counted.input_tokens;
      } catch (error) {
        throw toProviderError(error, name, label);
      }
    };
  }
  return provider;
}
