import type { Agent } from '@agent-core/core';
import { ConfigError } from '@agent-core/core';
import type { Tracer } from '@opentelemetry/api';
import { checkInstrumentArguments } from './check-instrument-arguments.js';
import type { InstrumentOptions } from './instrument-options.js';
import { recordSpans } from './record-spans.js';
import { type SemconvVersion, semconvVersionFromEnvironment } from './semconv.js';

/**
 * Turns every run of `agent` into OpenTelemetry spans after the GenAI
 * semantic conventions: an `invoke_agent` span per run with a `chat` span per
 * model call attempt (retries and fallback included) and an `execute_tool`
 * span per tool call as its children. Attaches through `agent.subscribe`, so
 * it composes with other listeners; returns the function that detaches it.
 *
 * Contract:
 * - Uses `@opentelemetry/api` only: without a registered SDK (or `tracer`) every span is a no-op.
 * - A run's span is a child of the `trace`/`traceparent` the prompt passed,
 *   else of the span active when `prompt()` was called, else a new trace's root.
 * - A subagent's run (a `subagent` event) is a child of the parent's `execute_tool` span.
 * - Never throws into the run; spans still open when the run ends or on detach are ended.
 * - Throws `ConfigError` at the call for an argument of the wrong kind (a `tracer` without
 *   `startSpan`, a `recordContent` that is not a boolean, ...).
 * - One instrumentation per agent: called again with the same options it returns the first
 *   one's detach function and records nothing twice; with other options it throws `ConfigError`.
 *
 * @example
 * const detach = instrument(agent, { agentName: 'calculator' });
 * await agent.prompt('What is 15 * 3?').result();
 * detach();
 */
export function instrument(agent: Agent, options: InstrumentOptions = {}): () => void {
  checkInstrumentArguments(agent, options);
  const version = options.semconv ?? semconvVersionFromEnvironment();
  const settings: InstrumentSettings = {
    tracer: options.tracer,
    agentName: options.agentName,
    recordContent: options.recordContent === true,
    version,
  };
  const existing = instrumented.get(agent);
  if (existing !== undefined) {
    if (sameSettings(existing.settings, settings)) return existing.detach;
    throw new ConfigError(
      'instrument(): this agent is already instrumented with other options; call the function the first instrument() returned to detach it, then instrument it again.',
    );
  }
  const detach = recordSpans(agent, options, version);
  const entry = {
    settings,
    detach: () => {
      if (instrumented.get(agent) === entry) instrumented.delete(agent);
      detach();
    },
  };
  instrumented.set(agent, entry);
  return entry.detach;
}

/** What makes two instrumentations of one agent the same. */
interface InstrumentSettings {
  tracer: Tracer | undefined;
  agentName: string | undefined;
  recordContent: boolean;
  version: SemconvVersion;
}

// Instrumentations by agent: a second one would record every span twice.
const instrumented = new WeakMap<Agent, { settings: InstrumentSettings; detach: () => void }>();

function sameSettings(first: InstrumentSettings, second: InstrumentSettings): boolean {
  return (
    first.tracer === second.tracer &&
    first.agentName === second.agentName &&
    first.recordContent === second.recordContent &&
    first.version === second.version
  );
}
