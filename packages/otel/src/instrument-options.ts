import type { Tracer } from '@opentelemetry/api';
import type { SemconvVersion } from './semconv.js';

/** Options of `instrument()`. */
export interface InstrumentOptions {
  /** Default: `trace.getTracer('@agent-core/otel')` from the globally registered provider (a no-op without an SDK). */
  tracer?: Tracer;
  /**
   * Record prompts, completions, tool arguments and tool results on the spans.
   * Default false: they may hold personal data. Secrets are never recorded in any case.
   */
  recordContent?: boolean;
  /** `gen_ai.agent.name` and the `invoke_agent {name}` span name. */
  agentName?: string;
  /** Which GenAI conventions to emit; default from `OTEL_SEMCONV_STABILITY_OPT_IN`, read when `instrument` is called. */
  semconv?: SemconvVersion;
}
