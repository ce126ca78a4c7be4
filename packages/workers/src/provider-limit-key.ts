import { createHash } from 'node:crypto';

/**
 * A provider's limit key from something secret or long, such as its API key
 * or base URL: `sha256:` and the first 16 hex digits of its SHA-256. Workers
 * limit runs per key (see `RunWorkerOptions.providerLimit`); a key made this
 * way lets them count runs per API key without the key's value ever being
 * stored or logged.
 *
 * @example
 * providerLimit: () => ({ key: providerLimitKey(process.env.ANTHROPIC_API_KEY ?? ''), limit: 4 })
 */
export function providerLimitKey(secretOrUrl: string): string {
  return `sha256:${createHash('sha256').update(secretOrUrl).digest('hex').slice(0, 16)}`;
}
