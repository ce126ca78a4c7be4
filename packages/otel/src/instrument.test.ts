import { Agent, type AgentEvent, defineTool } from '@agent-core/core';
import { mock } from '@agent-core/provider-mock';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { instrument } from './instrument.js';
import { stepOrchestrator } from '@agent-core/core/testing';
import { addTool as add, failingTool } from '@agent-core/test-support/sample-tools';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('test');
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  contextManager.disable();
  context.disable();
});
afterEach(() => {
  exporter.reset();
  delete process.env.OTEL_SEMCONV_STABILITY_OPT_IN;
});

const broken = failingTool();
const wait = defineTool({
  name: 'wait',
  description: 'waits',
  parameters: z.object({ ms: z.number() }),
  execute: ({ ms }) => new Promise<string>((resolve) => setTimeout(() => resolve(`waited ${ms}`), ms)),
});

function spans(): ReadableSpan[] {
  return exporter.getFinishedSpans();
}
function named(name: string): ReadableSpan[] {
  return spans().filter((span) => span.name === name);
}
function parentOf(span: ReadableSpan | undefined): string | undefined {
  return span?.parentSpanContext?.spanId;
}
function idOf(span: ReadableSpan | undefined): string | undefined {
  return span?.spanContext().spanId;
}

describe('instrument', () => {
  it('makes one span tree per run: invoke_agent with chat and execute_tool children and gen_ai attributes', async () => {
    const agent = new Agent({
      provider: mock({
        turns: [
          {
            toolCalls: [{ name: 'add', input: { a: 1, b: 2 }, id: 'call_1' }],
            usage: { input: 11, output: 7 },
          },
          { text: '3', usage: { input: 20, output: 1 } },
        ],
      }),
      model: 'mock-large',
      tools: [add],
      orchestrator: stepOrchestrator,
    });
    const detach = instrument(agent, { tracer, agentName: 'calculator' });
    const result = await agent.prompt('1 + 2?').result();
    detach();

    expect(spans().map((span) => span.name)).toEqual([
      'chat mock-large',
      'execute_tool add',
      'chat mock-large',
      'invoke_agent calculator',
    ]);
    const [root] = named('invoke_agent calculator');
    expect(parentOf(root)).toBeUndefined();
    for (const span of spans()) {
      expect(span.spanContext().traceId).toBe(root?.spanContext().traceId);
      if (span !== root) expect(parentOf(span)).toBe(idOf(root));
    }
    expect(root?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'calculator',
      'gen_ai.system': 'mock',
      'gen_ai.request.model': 'mock-large',
      'gen_ai.usage.input_tokens': 31,
      'gen_ai.usage.output_tokens': 8,
      'agent_core.run_id': result.runId,
      'agent_core.trace_id': result.traceId,
      'agent_core.span_id': result.spanId,
    });
    const [firstChat, secondChat] = named('chat mock-large');
    expect(firstChat?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.system': 'mock',
      'gen_ai.request.model': 'mock-large',
      'gen_ai.response.finish_reasons': ['tool_call'],
      'gen_ai.usage.input_tokens': 11,
      'gen_ai.usage.output_tokens': 7,
    });
    expect(secondChat?.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    const [tool] = named('execute_tool add');
    expect(tool?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add',
      'gen_ai.tool.call.id': 'call_1',
    });
    expect(tool?.status.code).not.toBe(SpanStatusCode.ERROR);
    // Content is off by default.
    expect(JSON.stringify(spans().map((span) => span.attributes))).not.toContain('1 + 2?');
    expect(tool?.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
  });

  it('marks a failed tool and a failed model call as errors with their type', async () => {
    const agent = new Agent({
      provider: mock({
        turns: [{ toolCalls: [{ name: 'broken', id: 'call_b' }] }, { error: { kind: 'auth', status: 401 } }],
      }),
      model: 'm',
      tools: [broken],
      orchestrator: stepOrchestrator,
    });
    instrument(agent, { tracer });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('error');
    const [tool] = named('execute_tool broken');
    expect(tool?.status.code).toBe(SpanStatusCode.ERROR);
    expect(tool?.status.message).toContain('disk on fire');
    expect(tool?.attributes['error.type']).toBe('tool_error');
    const chats = named('chat m');
    expect(chats.map((span) => span.status.code)).toEqual([SpanStatusCode.UNSET, SpanStatusCode.ERROR]);
    expect(chats[1]?.attributes['error.type']).toBe('provider_auth');
    expect(chats[1]?.events.map((event) => event.name)).toContain('exception');
    const [root] = named('invoke_agent');
    expect(root?.status.code).toBe(SpanStatusCode.ERROR);
    expect(root?.attributes['error.type']).toBe('provider_auth');
  });

  it('gives each retry its own chat span under the run', async () => {
    const agent = new Agent({
      provider: mock({ turns: [{ error: { kind: 'overloaded', status: 529 } }, { text: 'ok' }] }),
      model: 'm',
      retry: { baseDelayMs: 1 },
      orchestrator: stepOrchestrator,
    });
    instrument(agent, { tracer });
    await agent.prompt('go').result();
    const chats = named('chat m');
    expect(chats).toHaveLength(2);
    expect(chats.map((span) => span.attributes['agent_core.attempt'])).toEqual([0, 1]);
    expect(chats.map((span) => span.status.code)).toEqual([SpanStatusCode.ERROR, SpanStatusCode.UNSET]);
    expect(chats[0]?.attributes['error.type']).toBe('provider_overloaded');
    const [root] = named('invoke_agent');
    for (const chat of chats) expect(parentOf(chat)).toBe(idOf(root));
    expect(root?.events.map((event) => event.name)).toEqual(['retry']);
    expect(root?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('joins a trace passed in, and the span active when prompt() is called', async () => {
    const agent = new Agent({
      provider: mock({ turns: [{ text: 'a' }, { text: 'b' }] }),
      model: 'm',
      orchestrator: stepOrchestrator,
    });
    instrument(agent, { tracer });
    await agent
      .prompt('one', { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })
      .result();
    const [joined] = named('invoke_agent');
    expect(joined?.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(parentOf(joined)).toBe('b7ad6b7169203331');
    exporter.reset();

    await tracer.startActiveSpan('http request', async (outer) => {
      await agent.prompt('two').result();
      outer.end();
    });
    const [request] = named('http request');
    const [child] = named('invoke_agent');
    expect(parentOf(child)).toBe(idOf(request));
    expect(child?.spanContext().traceId).toBe(request?.spanContext().traceId);
  });

  it('links a run to the traces it was given, such as a resumed session first run', async () => {
    const agent = new Agent({
      provider: mock({ turns: [{ text: 'a' }] }),
      model: 'm',
      orchestrator: stepOrchestrator,
    });
    instrument(agent, { tracer });
    const first = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) };
    await agent.prompt('resume', { links: [first] }).result();
    const [root] = named('invoke_agent');
    expect(root?.links.map((link) => link.context.traceId)).toEqual([first.traceId]);
    expect(root?.links[0]?.context.spanId).toBe(first.spanId);
    expect(root?.spanContext().traceId).not.toBe(first.traceId);
  });

  it('keeps parallel tool calls under their own run span', async () => {
    const agent = new Agent({
      provider: mock({
        turns: [
          {
            toolCalls: [
              { name: 'wait', input: { ms: 30 }, id: 'slow' },
              { name: 'wait', input: { ms: 1 }, id: 'fast' },
              { name: 'wait', input: { ms: 10 }, id: 'middle' },
            ],
          },
          { text: 'done' },
        ],
      }),
      model: 'm',
      tools: [wait],
      orchestrator: stepOrchestrator,
      toolExecution: 'parallel',
    });
    instrument(agent, { tracer });
    await agent.prompt('go').result();
    const tools = named('execute_tool wait');
    const [root] = named('invoke_agent');
    expect(tools.map((span) => span.attributes['gen_ai.tool.call.id']).sort()).toEqual([
      'fast',
      'middle',
      'slow',
    ]);
    for (const tool of tools) expect(parentOf(tool)).toBe(idOf(root));
  });

  it('makes a subagent run a child of the execute_tool span that started it', async () => {
    const child = new Agent({
      provider: mock({ turns: [{ toolCalls: [{ name: 'add', input: { a: 2, b: 2 } }] }, { text: '4' }] }),
      model: 'child-model',
      tools: [add],
      orchestrator: stepOrchestrator,
    });
    let forward: ((event: AgentEvent) => void) | undefined;
    const delegate = defineTool({
      name: 'delegate',
      description: 'asks the helper',
      parameters: z.object({}),
      execute: async (_input, toolContext) => {
        // What agent definitions do: each child event reaches the parent's listeners wrapped.
        const unsubscribe = child.subscribe((event) =>
          forward?.({
            type: 'subagent',
            agent: 'helper',
            childRunId: event.runId,
            depth: 1,
            toolCallId: toolContext.toolCallId,
            event,
          } as unknown as AgentEvent),
        );
        const result = await child.prompt('2 + 2?').result();
        unsubscribe();
        return result.text;
      },
    });
    const parent = new Agent({
      provider: mock({ turns: [{ toolCalls: [{ name: 'delegate', id: 'call_d' }] }, { text: 'four' }] }),
      model: 'parent-model',
      tools: [delegate],
      orchestrator: stepOrchestrator,
    });
    const withWrapper = {
      options: parent.options,
      get messages() {
        return parent.messages;
      },
      subscribe(listener: (event: AgentEvent) => void) {
        forward = listener;
        return parent.subscribe(listener);
      },
    } as unknown as Agent;
    instrument(withWrapper, { tracer, agentName: 'boss' });
    await parent.prompt('ask the helper').result();

    const [boss] = named('invoke_agent boss');
    const [helper] = named('invoke_agent helper');
    const [delegateSpan] = named('execute_tool delegate');
    expect(parentOf(delegateSpan)).toBe(idOf(boss));
    expect(parentOf(helper)).toBe(idOf(delegateSpan));
    expect(helper?.attributes['agent_core.subagent.depth']).toBe(1);
    const [childTool] = named('execute_tool add');
    expect(parentOf(childTool)).toBe(idOf(helper));
    for (const chat of named('chat child-model')) expect(parentOf(chat)).toBe(idOf(helper));
    expect(new Set(spans().map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it('records content only when asked, in the latest conventions when the environment opts in', async () => {
    process.env.OTEL_SEMCONV_STABILITY_OPT_IN = 'http,gen_ai_latest_experimental';
    const agent = new Agent({
      provider: mock({ turns: [{ toolCalls: [{ name: 'add', input: { a: 1, b: 2 } }] }, { text: 'three' }] }),
      model: 'm',
      systemPrompt: 'You add.',
      tools: [add],
      orchestrator: stepOrchestrator,
    });
    const detach = instrument(agent, { tracer, recordContent: true });
    await agent.prompt('1 + 2?').result();
    detach();
    const [first, second] = named('chat m');
    expect(first?.attributes['gen_ai.provider.name']).toBe('mock');
    expect(first?.attributes['gen_ai.system']).toBeUndefined();
    expect(JSON.parse(first?.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: '1 + 2?' }] },
    ]);
    expect(JSON.parse(first?.attributes['gen_ai.system_instructions'] as string)).toEqual([
      { type: 'text', content: 'You add.' },
    ]);
    expect(JSON.parse(second?.attributes['gen_ai.output.messages'] as string)).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'three' }], finish_reason: 'stop' },
    ]);
    const [tool] = named('execute_tool add');
    expect(tool?.attributes['gen_ai.tool.call.arguments']).toBe('{"a":1,"b":2}');
    expect(tool?.attributes['gen_ai.tool.call.result']).toBe('3');
  });

  it('records content as v1.36 span events by default', async () => {
    const agent = new Agent({
      provider: mock({ turns: [{ text: 'hi' }] }),
      model: 'm',
      orchestrator: stepOrchestrator,
    });
    instrument(agent, { tracer, recordContent: true });
    await agent.prompt('hello').result();
    const [chat] = named('chat m');
    expect(chat?.events.map((event) => event.name)).toEqual(['gen_ai.user.message', 'gen_ai.choice']);
    expect(chat?.attributes['gen_ai.input.messages']).toBeUndefined();
  });

  it('stops recording once detached, and composes with other listeners', async () => {
    const agent = new Agent({
      provider: mock({ turns: [{ text: 'a' }, { text: 'b' }] }),
      model: 'm',
      orchestrator: stepOrchestrator,
    });
    const seen: string[] = [];
    agent.subscribe((event) => seen.push(event.type));
    const detach = instrument(agent, { tracer });
    await agent.prompt('one').result();
    detach();
    await agent.prompt('two').result();
    expect(named('invoke_agent')).toHaveLength(1);
    expect(seen.filter((type) => type === 'agent_end')).toHaveLength(2);
  });

  it('does nothing and throws nothing with only the API and no SDK registered', async () => {
    const agent = new Agent({
      provider: mock({ turns: [{ toolCalls: [{ name: 'broken' }] }, { text: 'ok' }] }),
      model: 'm',
      tools: [broken],
      orchestrator: stepOrchestrator,
    });
    const detach = instrument(agent, { recordContent: true });
    const result = await agent.prompt('go').result();
    detach();
    expect(result.terminateReason).toBe('completed');
    expect(trace.getTracer('x').startSpan('probe').isRecording()).toBe(false);
    expect(spans()).toEqual([]);
  });

  it('starts no model or tool spans for a run that is sampled out', async () => {
    const sampledOut = new BasicTracerProvider({
      sampler: new AlwaysOffSampler(),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).getTracer('off');
    const agent = new Agent({
      provider: mock({ turns: [{ toolCalls: [{ name: 'add', input: { a: 1, b: 1 } }] }, { text: '2' }] }),
      model: 'm',
      tools: [add],
      orchestrator: stepOrchestrator,
    });
    instrument(agent, { tracer: sampledOut });
    const result = await agent.prompt('go').result();
    expect(result.text).toBe('2');
    expect(spans()).toEqual([]);
  });
});
