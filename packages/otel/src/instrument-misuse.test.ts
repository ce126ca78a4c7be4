import { Agent, ConfigError } from '@agent-core/core';
import { mock } from '@agent-core/provider-mock';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { instrument } from './instrument.js';
import type { InstrumentOptions } from './instrument-options.js';
import { stepOrchestrator } from '@agent-core/core/testing';

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = tracerProvider.getTracer('test');
afterEach(() => exporter.reset());

function agent(turns = 1) {
  return new Agent({
    provider: mock({ turns: Array.from({ length: turns }, () => ({ text: 'hi' })) }),
    model: 'mock',
    orchestrator: stepOrchestrator,
  });
}

function names(): string[] {
  return exporter
    .getFinishedSpans()
    .map((span) => span.name)
    .sort();
}

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('instrument: misuse fails at the call', () => {
  it.each([
    [
      'a number as tracer',
      { tracer: 42 },
      /options\.tracer must be an OpenTelemetry Tracer.*got the number 42/,
    ],
    ['an object that is no tracer', { tracer: {} }, /options\.tracer .*got an object without startSpan\(\)/],
    [
      'a string as recordContent',
      { recordContent: 'yes' },
      /options\.recordContent must be true or false, got the string "yes"/,
    ],
    [
      'an empty agentName',
      { agentName: '' },
      /options\.agentName must be a non-empty string .*got an empty string/,
    ],
    [
      'an unknown semconv',
      { semconv: 'v2' },
      /options\.semconv must be 'v1\.36' or 'latest', got the string "v2"/,
    ],
    ['options that are not an object', 'greeter', /options must be an object .*got the string "greeter"/],
  ])('%s: ConfigError naming the option', async (_, options, message) => {
    const instrumented = agent();
    const error = thrown(() => instrument(instrumented, options as unknown as InstrumentOptions));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('invalid_config');
    expect((error as Error).message).toMatch(message);
    // Nothing was attached: a run records nothing and the agent can still be instrumented properly.
    await instrumented.prompt('x').result();
    expect(names()).toEqual([]);
  });

  it('something that is not an agent: ConfigError naming the argument', () => {
    for (const value of [undefined, null, {}, 'agent']) {
      const error = thrown(() => instrument(value as unknown as Agent, { tracer }));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/instrument\(agent\): agent must be an Agent/);
    }
  });
});

describe('instrument: once per agent', () => {
  it('instrumenting twice with the same options returns the first instrumentation: each span once', async () => {
    const instrumented = agent(2);
    const first = instrument(instrumented, { tracer, agentName: 'greeter' });
    const second = instrument(instrumented, { tracer, agentName: 'greeter' });
    expect(second).toBe(first);
    await instrumented.prompt('hello').result();
    expect(names()).toEqual(['chat mock', 'invoke_agent greeter']);

    // Detaching stops recording; the agent can then be instrumented again.
    first();
    second();
    await instrumented.prompt('again').result();
    expect(names()).toEqual(['chat mock', 'invoke_agent greeter']);
  });

  it('instrumenting again with other options is refused, and the first keeps recording once', async () => {
    const instrumented = agent(2);
    const detach = instrument(instrumented, { tracer, agentName: 'greeter' });
    const error = thrown(() => instrument(instrumented, { tracer, agentName: 'other' }));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/already instrumented with other options.*detach it/);
    await instrumented.prompt('hello').result();
    expect(names()).toEqual(['chat mock', 'invoke_agent greeter']);

    detach();
    exporter.reset();
    instrument(instrumented, { tracer, agentName: 'other' });
    await instrumented.prompt('again').result();
    expect(names()).toEqual(['chat mock', 'invoke_agent other']);
  });

  it('two agents are instrumented apart', async () => {
    const one = agent();
    const two = agent();
    expect(instrument(one, { tracer, agentName: 'one' })).not.toBe(
      instrument(two, { tracer, agentName: 'two' }),
    );
    await one.prompt('x').result();
    await two.prompt('y').result();
    expect(names()).toEqual(['chat mock', 'chat mock', 'invoke_agent one', 'invoke_agent two']);
  });
});
