import { ConfigError } from '@agent-core/core';
import type { SemconvVersion } from './semconv.js';

const semconvVersions: readonly SemconvVersion[] = ['v1.36', 'latest'];

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value)}`;
    case 'object':
      return 'an object';
    case 'function':
      return 'a function';
    case 'undefined':
      return 'undefined';
    default:
      return `the ${typeof value} ${String(value)}`;
  }
}

/**
 * Checks what `instrument()` was given, so a mistake fails at the call with a
 * `ConfigError` naming the argument and what it needs, instead of a run that
 * records nothing.
 */
export function checkInstrumentArguments(agent: unknown, options: unknown): void {
  if (typeof (agent as { subscribe?: unknown } | null | undefined)?.subscribe !== 'function') {
    throw new ConfigError(
      `instrument(agent): agent must be an Agent from @agent-core/core (with subscribe()), got ${typeof agent === 'object' && agent !== null ? 'an object without subscribe()' : describe(agent)}.`,
    );
  }
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigError(
      `instrument(agent, options): options must be an object such as { tracer, agentName }, got ${describe(options)}.`,
    );
  }
  const { tracer, recordContent, agentName, semconv } = options as Record<string, unknown>;
  if (tracer !== undefined && typeof (tracer as { startSpan?: unknown } | null)?.startSpan !== 'function') {
    throw new ConfigError(
      `instrument(): options.tracer must be an OpenTelemetry Tracer (an object with startSpan(), such as provider.getTracer('my-app')), got ${typeof tracer === 'object' && tracer !== null ? 'an object without startSpan()' : describe(tracer)}. Leave it out to use the global tracer provider.`,
    );
  }
  if (recordContent !== undefined && typeof recordContent !== 'boolean') {
    throw new ConfigError(
      `instrument(): options.recordContent must be true or false, got ${describe(recordContent)}.`,
    );
  }
  if (agentName !== undefined && (typeof agentName !== 'string' || agentName === '')) {
    throw new ConfigError(
      `instrument(): options.agentName must be a non-empty string (it names the invoke_agent span), got ${typeof agentName === 'string' ? 'an empty string' : describe(agentName)}.`,
    );
  }
  if (semconv !== undefined && !semconvVersions.includes(semconv as SemconvVersion)) {
    throw new ConfigError(
      `instrument(): options.semconv must be 'v1.36' or 'latest', got ${describe(semconv)}. Leave it out to follow OTEL_SEMCONV_STABILITY_OPT_IN.`,
    );
  }
}
