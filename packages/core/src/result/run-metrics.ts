import type { ToolCallRecord } from './agent-result.js';
import type { Usage } from '../messages/messages.js';

/** Counts and time of one tool's calls in a run. */
export interface ToolMetrics {
  count: number;
  errors: number;
  /** Total time spent in this tool's calls, in milliseconds (0.1 ms resolution). */
  durationMs: number;
}

/** The numbers of one run, in `result.metrics`: plain JSON, ready for a metrics backend or a log line. */
export interface RunMetrics {
  /** Turns started (model calls the orchestrator asked for). */
  turns: number;
  /** Model call attempts: first tries, retries and fallback attempts. */
  modelCalls: number;
  retries: number;
  /** Attempts made on the fallback provider. */
  fallbacks: number;
  /** Tool calls by tool name; skipped and not-run calls count as errors. */
  toolCalls: Record<string, ToolMetrics>;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
  /** US dollars, when the provider knows the model's prices. */
  costUsd?: number;
  /** From the run's first model request to the first event it streamed back, in ms; absent when no call answered. */
  timeToFirstTokenMs?: number;
  /** Wall-clock time of the run, in milliseconds (0.1 ms resolution). */
  durationMs: number;
}

/** Rounds a duration to 0.1 ms: finer digits are clock noise. */
export function roundMs(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Builds a run's metrics from what the run recorded anyway: nothing is counted per step for it but three integers. */
export function runMetrics(input: {
  turns: number;
  modelCalls: number;
  retries: number;
  fallbacks: number;
  toolCalls: readonly ToolCallRecord[];
  usage: Usage;
  timeToFirstTokenMs: number | undefined;
  durationMs: number;
}): RunMetrics {
  const toolCalls: Record<string, ToolMetrics> = {};
  for (const call of input.toolCalls) {
    let entry = toolCalls[call.name];
    if (entry === undefined) {
      entry = { count: 0, errors: 0, durationMs: 0 };
      toolCalls[call.name] = entry;
    }
    entry.count++;
    if (call.isError) entry.errors++;
    entry.durationMs += call.durationMs;
  }
  for (const entry of Object.values(toolCalls)) entry.durationMs = roundMs(entry.durationMs);
  const usage = input.usage;
  const metrics: RunMetrics = {
    turns: input.turns,
    modelCalls: input.modelCalls,
    retries: input.retries,
    fallbacks: input.fallbacks,
    toolCalls,
    tokens: {
      input: usage.input,
      output: usage.output,
      cacheRead: usage.cacheRead,
      cacheWrite: usage.cacheWrite,
      total: usage.input + usage.output + usage.cacheRead + usage.cacheWrite,
    },
    durationMs: roundMs(input.durationMs),
  };
  if (usage.cost !== undefined) metrics.costUsd = Math.round(usage.cost * 1e6) / 1e6;
  if (input.timeToFirstTokenMs !== undefined) metrics.timeToFirstTokenMs = roundMs(input.timeToFirstTokenMs);
  return metrics;
}
