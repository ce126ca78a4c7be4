/** The `@anthropic-ai/sdk` module. */
export type AnthropicSdk = typeof import('@anthropic-ai/sdk');

let loading: Promise<AnthropicSdk> | undefined;

/**
 * Loads the SDK on first use. Importing this package (and registering the
 * provider) then stays cheap; the SDK's load time is paid by the first request.
 */
export function loadSdk(): Promise<AnthropicSdk> {
  loading ??= import('@anthropic-ai/sdk');
  return loading;
}
