/** How a provider is named: on messages and errors (`provider`), and as the start of error messages (`label`). */
export interface ProviderNames {
  /** `message.provider` and `error.provider`: the `name` option, else `anthropic`. */
  provider: string;
  /** Who answered, as error messages say it: the `name` option, else `Anthropic API` or the server's host. */
  label: string;
}

const anthropicHost = 'api.anthropic.com';

/**
 * Who answers, for error messages: the `name` option; else `Anthropic API`
 * when the client talks to Anthropic; else the base URL's host (a proxy,
 * llama.cpp), so its errors do not read as Anthropic's.
 */
export function providerLabel(name: string | undefined, baseURL: string | undefined): string {
  if (name !== undefined) return name;
  if (baseURL === undefined) return 'Anthropic API';
  try {
    const host = new URL(baseURL).host;
    return host === '' || host === anthropicHost ? 'Anthropic API' : host;
  } catch {
    return baseURL;
  }
}
