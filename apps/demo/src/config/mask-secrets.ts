import { redactSecrets } from '@agent-core/core';

// `scheme://user:password@host`: the user info is masked whatever the password looks like.
const userInfo = /([a-z][a-z0-9+.-]*:\/\/)[^/\s@:]+(?::[^/\s@]*)?@/gi;

/**
 * Masks what must never be printed: the configured secrets (API keys, URL
 * passwords, header values), user info in any URL, and anything core's
 * `redactSecrets` recognises as a key. Applied to errors, `--json` events,
 * log records and `config show`.
 */
export function maskSecrets<Value>(value: Value, secrets: readonly string[]): Value {
  const redacted = redactSecrets(value, { secrets });
  return maskUserInfo(redacted);
}

function maskUserInfo<Value>(value: Value): Value {
  if (typeof value === 'string') return value.replace(userInfo, '$1***@') as Value;
  if (Array.isArray(value)) return value.map((item) => maskUserInfo(item)) as Value;
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = maskUserInfo(item);
    return copy as Value;
  }
  return value;
}

/** How `config show` prints a secret: its length and last four characters at most. */
export function maskedValue(secret: string): string {
  return secret.length >= 16 ? `***${secret.slice(-4)}` : '***';
}

/** A URL with its user info masked: `http://***@host/v1`. */
export function maskUrl(text: string): string {
  return text.replace(userInfo, '$1***@');
}
