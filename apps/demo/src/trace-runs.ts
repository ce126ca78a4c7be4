import type { Agent } from '@agent-core/core';
import { instrument, spanTreeCollector } from '@agent-core/otel';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { OutputStream as Output } from './output/terminal-style.js';

/** What `--trace` attaches: call `print` when a run has ended. */
export interface RunTracer {
  /** Writes the span tree of the runs since the last call, then forgets them. */
  print(out: Output): void;
}

/**
 * Attaches `@agent-core/otel` to the agent with an SDK tracer of its own (not
 * the global one) whose spans are kept in memory, so each run can be shown as
 * a tree of `invoke_agent`, `chat` and `execute_tool` spans with durations.
 */
export function traceRuns(agent: Agent): RunTracer {
  const collector = spanTreeCollector();
  const provider = new BasicTracerProvider({ spanProcessors: [collector] });
  instrument(agent, { tracer: provider.getTracer('@agent-core/demo'), agentName: 'agent-core' });
  return {
    print(out) {
      if (collector.spans.length === 0) return;
      const tree = collector.format();
      out.write(`trace:\n${tree.endsWith('\n') ? tree : `${tree}\n`}`);
      collector.clear();
    },
  };
}
