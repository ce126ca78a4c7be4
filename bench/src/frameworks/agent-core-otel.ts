import { instrument } from '@agent-core/otel';
import { agentic } from '@agent-core/orchestrator-agentic';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { coreFramework } from './agent-core.js';
import type { Framework } from './framework.js';

// An exporter that accepts every span and sends nothing: the SDK still builds, ends and
// hands over each span, so the row measures the adapter plus the SDK, not a network.
const noopExporter: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
};

/**
 * agent-core with `@agent-core/otel` attached: once with no SDK registered (the API's
 * no-op tracer, what a library user without OpenTelemetry pays), once with a real SDK
 * tracer and a no-op exporter behind a SimpleSpanProcessor (every span exported as it ends).
 */
export function coreOtelFrameworks(): Framework[] {
  const tracer = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(noopExporter)],
  }).getTracer('bench');
  return [
    coreFramework({
      id: 'core-otel-noop',
      label: 'agent-core agentic sequential, otel adapter, no-op tracer',
      orchestrator: () => agentic({ toolExecution: 'sequential' }),
      provider: 'scripted',
      attach: (agent) => {
        instrument(agent);
      },
    }),
    coreFramework({
      id: 'core-otel-sdk',
      label: 'agent-core agentic sequential, otel adapter, SDK tracer, no-op exporter',
      orchestrator: () => agentic({ toolExecution: 'sequential' }),
      provider: 'scripted',
      attach: (agent) => {
        instrument(agent, { tracer });
      },
    }),
  ];
}
