/** The `openai` module. */
export type OpenAISdk = typeof import('openai');

let loading: Promise<OpenAISdk> | undefined;
let loaded: OpenAISdk | undefined;

/**
 * Loads the SDK on first use, so importing this package (and registering the
 * provider) stays cheap; the SDK's load time is paid by the first request.
 */
export function loadSdk(): Promise<OpenAISdk> {
  loading ??= import('openai').then((sdk) => {
    loaded = sdk;
    return sdk;
  });
  return loading;
}

/** The SDK if a request has loaded it: an error can only be one of its classes once it is. */
export function loadedSdk(): OpenAISdk | undefined {
  return loaded;
}
