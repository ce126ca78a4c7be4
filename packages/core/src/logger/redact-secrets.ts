/** What a redacted value is replaced with. */
export const redactedText = '[REDACTED]';

// Token shapes of well-known API keys and credentials, each with how its match is replaced:
// a credential's name or scheme stays, so a record still says what was removed.
const secretPatterns: readonly (readonly [RegExp, (match: string, ...groups: string[]) => string])[] = [
  // Anthropic (sk-ant-...), OpenAI (sk-..., sk-proj-..., sk-svcacct-...), and the many servers that copy the shape.
  [/\bsk-[A-Za-z0-9_-]{8,}/g, () => `sk-${redactedText}`],
  // Authorization: Bearer <token> / Basic <credentials>, in headers, curl lines or error text.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, (_match, scheme) => `${scheme} ${redactedText}`],
  // key=value and "key": "value" forms of credential-like names.
  [
    /\b(authorization|proxy-authorization|x-api-key|api[-_]?key|x-goog-api-key|access[-_]?token|secret|password|client[-_]?secret)(["']?\s*[:=]\s*["']?)(?!\[REDACTED\]|Bearer |Basic )[^\s"',;&}]{4,}/gi,
    (_match, key, separator) => `${key}${separator}${redactedText}`,
  ],
  // The user info of a URL (`scheme://user:password@host`, `https://token@host`): whatever its shape, it is a credential.
  [/\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#@]+@/gi, (_match, scheme) => `${scheme}${redactedText}@`],
  // Google API keys, GitHub tokens, AWS access key ids, Slack tokens, JSON Web Tokens.
  [/\bAIza[0-9A-Za-z_-]{30,}/g, () => redactedText],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, () => redactedText],
  [/\b(AKIA|ASIA)[0-9A-Z]{16}\b/g, () => redactedText],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, () => redactedText],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, () => redactedText],
];

// Keys whose values are credentials whatever they look like.
const secretKeyPattern =
  /^(authorization|proxy-authorization|x-api-key|api[-_]?key|apikey|x-goog-api-key|access[-_]?token|refresh[-_]?token|id[-_]?token|secret|client[-_]?secret|password|passwd|cookie|set-cookie|private[-_]?key)$/i;

/** Options of `redactSecrets`. */
export interface RedactOptions {
  /** Exact values to remove as well (a provider's configured API key, say), at least 8 characters each. */
  secrets?: readonly string[];
}

/**
 * Removes API keys, authorization headers and other secret-looking values
 * from a string, or from every string of a plain object or array (a copy;
 * values under credential-like keys such as `authorization` or `apiKey` are
 * replaced whole). Core applies it to `ProviderError` messages and log records.
 *
 * @example
 * redactSecrets('401: invalid x-api-key sk-ant-api03-abcdefgh'); // '401: invalid x-api-key [REDACTED]'
 */
export function redactSecrets<Value>(value: Value, options?: RedactOptions): Value {
  return redactValue(value, options?.secrets, 0) as Value;
}

function redactValue(value: unknown, secrets: readonly string[] | undefined, depth: number): unknown {
  if (typeof value === 'string') return redactString(value, secrets);
  if (typeof value !== 'object' || value === null || depth > 20) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
  // Errors and class instances keep their identity; plain records are copied with each field redacted.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    if (value instanceof Error) return redactString(`${value.name}: ${value.message}`, secrets);
    return value;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    copy[key] =
      secretKeyPattern.test(key) && (typeof field === 'string' || typeof field === 'number')
        ? redactedText
        : redactValue(field, secrets, depth + 1);
  }
  return copy;
}

function redactString(text: string, secrets: readonly string[] | undefined): string {
  let result = text;
  if (secrets !== undefined) {
    for (const secret of secrets) {
      if (secret.length >= 8 && result.includes(secret)) result = result.split(secret).join(redactedText);
    }
  }
  for (const [pattern, replacement] of secretPatterns) {
    pattern.lastIndex = 0;
    if (!pattern.test(result)) continue;
    pattern.lastIndex = 0;
    result = result.replace(pattern, replacement as (match: string, ...groups: unknown[]) => string);
  }
  return result;
}
