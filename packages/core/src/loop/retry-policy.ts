import type { ProviderError } from '../provider/provider-error.js';

/** How core retries failed model calls. Retries happen here only; provider SDKs run with their own retries off. */
export interface RetryPolicy {
  /** Retries after the first attempt, per provider. Default 3. */
  maxRetries?: number;
  /** First backoff delay. Default 500 ms. */
  baseDelayMs?: number;
  /** Cap on one delay, Retry-After included. Default 30 s. */
  maxDelayMs?: number;
}

/**
 * The delay before retry number `attempt` (0-based): exponential with full
 * jitter, or the server's Retry-After when it gave one (capped).
 */
export function retryDelay(policy: Required<RetryPolicy>, attempt: number, error: ProviderError): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** The policy with its defaults filled in. */
export function resolveRetryPolicy(policy: RetryPolicy | undefined): Required<RetryPolicy> {
  return {
    maxRetries: policy?.maxRetries ?? 3,
    baseDelayMs: policy?.baseDelayMs ?? 500,
    maxDelayMs: policy?.maxDelayMs ?? 30_000,
  };
}
