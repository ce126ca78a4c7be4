import { costOf } from '@agent-core/core';
import type { ModelInfo, Usage } from '@agent-core/core';

/** Token counts as OpenAI reports them: `input` includes the cached tokens. */
export interface ReportedUsage {
  input: number | null | undefined;
  cached: number | null | undefined;
  output: number | null | undefined;
}

function count(value: number | null | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Converts OpenAI's token counts to core's `Usage`. OpenAI counts cached tokens
 * inside the prompt tokens; core counts them apart, so `input` here is the
 * uncached part and `cacheRead` the cached part, and `costOf` prices each once.
 */
export function toUsage(reported: ReportedUsage, pricing: ModelInfo['pricing']): Usage {
  const cached = count(reported.cached);
  const usage: Usage = {
    input: Math.max(0, count(reported.input) - cached),
    output: count(reported.output),
    cacheRead: cached,
    cacheWrite: 0,
  };
  if (pricing !== undefined) usage.cost = costOf(usage, pricing);
  return usage;
}
