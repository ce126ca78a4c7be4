import type { Usage } from '@agent-core/core';
import type { Span } from '@opentelemetry/api';
import { attributes } from './semconv.js';

/**
 * Sets the GenAI usage attributes of a span from core's `Usage`. Core counts
 * `input` as the uncached input alone, beside `cacheRead` and `cacheWrite`; the
 * conventions' `gen_ai.usage.input_tokens` is the whole prompt, cache reads and
 * cache writes included, and the cache attributes are parts of it.
 */
export function setUsageAttributes(span: Span, usage: Usage): void {
  const cacheRead = count(usage.cacheRead);
  const cacheWrite = count(usage.cacheWrite);
  span.setAttribute(attributes.usageInputTokens, count(usage.input) + cacheRead + cacheWrite);
  span.setAttribute(attributes.usageOutputTokens, count(usage.output));
  if (cacheRead > 0) span.setAttribute(attributes.usageCacheReadInputTokens, cacheRead);
  if (cacheWrite > 0) span.setAttribute(attributes.usageCacheCreationInputTokens, cacheWrite);
}

// A usage from an app's own provider may lack a field: a missing count is 0, never NaN on a span.
function count(value: number | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
