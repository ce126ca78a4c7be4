import { instrument } from '@agent-core/otel';
import { agentic } from '@agent-core/orchestrator-agentic';
import { type Attributes, context, type Context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { coreFramework } from './frameworks/agent-core.js';
import { stepScenario } from './scenario.js';

// What the OpenTelemetry SDK alone costs for the spans an agent-core run makes, against the
// plain run and the instrumented one, in one process, in alternating batches:
//   node dist/otel-span-floor.js [steps] [seconds]
// The spans of one instrumented run are recorded (names, attributes, events), then replayed
// on the SDK with no agent at all: that replay is the floor the adapter cannot go under.

const steps = Number(process.argv[2] ?? 100);
const seconds = Number(process.argv[3] ?? 10);

const noopExporter: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
};
const tracer = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(noopExporter)],
}).getTracer('bench');

const plain = coreFramework({
  id: 'core-seq',
  label: 'plain',
  orchestrator: () => agentic({ toolExecution: 'sequential' }),
  provider: 'scripted',
});
const instrumented = coreFramework({
  id: 'core-otel-sdk',
  label: 'otel',
  orchestrator: () => agentic({ toolExecution: 'sequential' }),
  provider: 'scripted',
  attach: (agent) => {
    instrument(agent, { tracer });
  },
});

interface RecordedSpan {
  name: string;
  attributes: Attributes;
  events: { name: string; attributes: Attributes | undefined }[];
  root: boolean;
}

/** The spans of one instrumented run of `steps` steps, as the SDK received them. */
async function recordSpans(): Promise<RecordedSpan[]> {
  const exporter = new InMemorySpanExporter();
  const recording = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const recorder = coreFramework({
    id: 'record',
    label: 'record',
    orchestrator: () => agentic({ toolExecution: 'sequential' }),
    provider: 'scripted',
    attach: (agent) => {
      instrument(agent, { tracer: recording.getTracer('record') });
    },
  });
  await recorder.run(stepScenario(steps, 0, false));
  return exporter.getFinishedSpans().map((span) => ({
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    root: span.parentSpanContext === undefined,
  }));
}

/** Starts and ends every recorded span on the SDK tracer, children under one root, as a run does. */
function replay(spans: readonly RecordedSpan[]): void {
  let parent: Context = context.active();
  const roots = spans.filter((span) => span.root);
  const rootSpan = tracer.startSpan(roots[0]?.name ?? 'invoke_agent', { attributes: roots[0]?.attributes });
  parent = trace.setSpan(parent, rootSpan);
  for (const recorded of spans) {
    if (recorded.root) continue;
    const span = tracer.startSpan(recorded.name, { attributes: recorded.attributes }, parent);
    for (const event of recorded.events) span.addEvent(event.name, event.attributes);
    span.end();
  }
  rootSpan.end();
}

const spans = await recordSpans();
const scenario = stepScenario(steps, 0, false);
const totals = { plain: 0, instrumented: 0, replay: 0 };
const batch = 20;
let batches = 0;
const end = performance.now() + seconds * 1000;
// Warm-up of each side, then alternating batches so the machine's load hits all three alike.
for (let index = 0; index < batch; index++) {
  await plain.run(scenario);
  await instrumented.run(scenario);
  replay(spans);
}
while (performance.now() < end) {
  let started = performance.now();
  for (let index = 0; index < batch; index++) await plain.run(scenario);
  totals.plain += performance.now() - started;
  started = performance.now();
  for (let index = 0; index < batch; index++) await instrumented.run(scenario);
  totals.instrumented += performance.now() - started;
  started = performance.now();
  for (let index = 0; index < batch; index++) {
    replay(spans);
    // The SDK's processor hands spans over asynchronously: let that work run, as it does in a run.
    await new Promise((resolve) => setImmediate(resolve));
  }
  totals.replay += performance.now() - started;
  batches++;
}
const perStep = (total: number) => (total * 1000) / (batches * batch * steps);
const plainStep = perStep(totals.plain);
const instrumentedStep = perStep(totals.instrumented);
const replayStep = perStep(totals.replay);
process.stdout.write(
  [
    `${spans.length} spans per run of ${steps} steps (${(spans.length / steps).toFixed(2)} per step)`,
    `plain run:                     ${plainStep.toFixed(2)} µs per step`,
    `instrumented run (SDK tracer): ${instrumentedStep.toFixed(2)} µs per step (${(instrumentedStep / plainStep).toFixed(2)}× plain)`,
    `the SDK alone, same spans:     ${replayStep.toFixed(2)} µs per step (${(replayStep / plainStep).toFixed(2)}× plain)`,
    `the adapter's own share:       ${(instrumentedStep - plainStep - replayStep).toFixed(2)} µs per step`,
  ].join('\n') + '\n',
);
