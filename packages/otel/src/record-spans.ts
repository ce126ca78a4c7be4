import type { Agent, AgentEvent, AgentEventOf, AgentResult, TraceContext } from '@agent-core/core';
import {
  type Attributes,
  type Context,
  context as otelContext,
  type Link,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import { inputMessages, outputMessage, type SemconvMessage } from './content.js';
import type { InstrumentOptions } from './instrument-options.js';
import {
  attributes,
  contentAttributes,
  contentEvents,
  finishReasons,
  operations,
  providerNameAttribute,
  type SemconvVersion,
  spanNames,
} from './semconv.js';
import { setUsageAttributes } from './usage-attributes.js';

interface RunSpans {
  /**
   * False when the run's span records nothing (no SDK, or sampled out): its model and tool
   * calls would not be recorded under a parent-based sampler either, so they are not started.
   */
  recording: boolean;
  span: Span;
  context: Context;
  chats: Map<string, Span>;
  tools: Map<string, Span>;
}

interface Scope {
  agentName: string | undefined;
  /** The tool call whose execute_tool span parents this (sub)agent's run. */
  parentToolCallId: string | undefined;
  depth: number;
}

const rootScope: Scope = { agentName: undefined, parentToolCallId: undefined, depth: 0 };

/**
 * Subscribes to the agent's events and turns each run into spans; returns the
 * function that detaches and ends every span still open. `instrument()` checks
 * the arguments and keeps one recorder per agent.
 */
export function recordSpans(agent: Agent, options: InstrumentOptions, version: SemconvVersion): () => void {
  const tracer = options.tracer ?? trace.getTracer('@agent-core/otel');
  const providerAttribute = providerNameAttribute(version);
  const recordContent = options.recordContent === true;
  const runs = new Map<string, RunSpans>();
  // Tool call ids of open execute_tool spans, for subagent runs started by them.
  const toolContexts = new Map<string, Context>();

  const startRun = (event: AgentEventOf<'agent_start'>, scope: Scope) => {
    let parent: Context = otelContext.active();
    const toolContext =
      scope.parentToolCallId === undefined ? undefined : toolContexts.get(scope.parentToolCallId);
    if (toolContext !== undefined) parent = toolContext;
    else if (event.parentSpanId !== undefined) {
      parent = trace.setSpanContext(parent, remote({ traceId: event.traceId, spanId: event.parentSpanId }));
    }
    const agentName = scope.agentName ?? options.agentName;
    const spanAttributes: Attributes = {
      [attributes.operationName]: operations.invokeAgent,
      [attributes.runId]: event.runId,
      [attributes.coreTraceId]: event.traceId,
      [attributes.coreSpanId]: event.spanId,
    };
    if (agentName !== undefined) spanAttributes[attributes.agentName] = agentName;
    if (scope.depth === 0) {
      spanAttributes[providerAttribute] = agent.options.provider.name;
      spanAttributes[attributes.requestModel] = agent.options.model;
    } else spanAttributes[attributes.subagentDepth] = scope.depth;
    const links: Link[] | undefined = event.links?.map((link) => ({ context: remote(link) }));
    const span = tracer.startSpan(
      spanNames.invokeAgent(agentName),
      { kind: SpanKind.INTERNAL, attributes: spanAttributes, ...(links === undefined ? {} : { links }) },
      parent,
    );
    runs.set(event.runId, {
      recording: span.isRecording(),
      span,
      context: trace.setSpan(parent, span),
      chats: new Map(),
      tools: new Map(),
    });
  };

  const startChat = (run: RunSpans, event: AgentEventOf<'message_start'>, scope: Scope) => {
    const spanAttributes: Attributes = {
      [attributes.operationName]: operations.chat,
      [providerAttribute]: event.provider,
      [attributes.requestModel]: event.model,
      [attributes.attempt]: event.attempt,
      [attributes.turn]: event.turn,
      [attributes.coreSpanId]: event.spanId,
    };
    const span = tracer.startSpan(
      spanNames.chat(event.model),
      { kind: SpanKind.CLIENT, attributes: spanAttributes },
      run.context,
    );
    // The history as the call is sent is only at hand for the instrumented agent itself.
    if (recordContent && scope.depth === 0) {
      const system = agent.options.systemPrompt;
      recordMessages(
        span,
        version,
        'input',
        inputMessages(agent.messages),
        typeof system === 'string' ? system : undefined,
      );
    }
    run.chats.set(event.spanId, span);
  };

  const endChat = (run: RunSpans, event: AgentEventOf<'message_end'>) => {
    const span = run.chats.get(event.spanId);
    if (span === undefined) return;
    run.chats.delete(event.spanId);
    const message = event.message;
    if (message.model !== undefined) span.setAttribute(attributes.responseModel, message.model);
    span.setAttribute(attributes.responseFinishReasons, [
      finishReasons[message.stopReason] ?? message.stopReason,
    ]);
    if (message.usage !== undefined) setUsageAttributes(span, message.usage);
    if (event.error !== undefined) {
      span.setAttribute(attributes.errorType, event.error.code);
      span.recordException({ name: event.error.name, message: event.error.message });
      span.setStatus({ code: SpanStatusCode.ERROR, message: event.error.message });
    } else if (message.stopReason === 'aborted') {
      span.setAttribute(attributes.errorType, 'aborted');
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'The run was aborted during the model call.' });
    } else if (recordContent) {
      recordMessages(span, version, 'output', [outputMessage(message)], undefined);
    }
    span.end();
  };

  const startTool = (run: RunSpans, event: AgentEventOf<'tool_call_start'>) => {
    const call = event.toolCall;
    const spanAttributes: Attributes = {
      [attributes.operationName]: operations.executeTool,
      [attributes.toolName]: call.name,
      [attributes.toolCallId]: call.id,
      [attributes.toolType]: 'function',
      [attributes.turn]: event.turn,
      [attributes.coreSpanId]: event.spanId,
    };
    if (recordContent) spanAttributes[attributes.toolCallArguments] = JSON.stringify(call.input);
    // Every tool span is parented explicitly by its run: parallel calls and nested runs keep their parents.
    const span = tracer.startSpan(
      spanNames.executeTool(call.name),
      { kind: SpanKind.INTERNAL, attributes: spanAttributes },
      run.context,
    );
    run.tools.set(event.spanId, span);
    toolContexts.set(call.id, trace.setSpan(run.context, span));
  };

  const endTool = (run: RunSpans, event: AgentEventOf<'tool_call_end'>) => {
    const span = run.tools.get(event.spanId);
    if (span === undefined) return;
    run.tools.delete(event.spanId);
    if (recordContent) {
      span.setAttribute(
        attributes.toolCallResult,
        typeof event.result === 'string' ? event.result : JSON.stringify(event.result),
      );
    }
    if (event.isError) {
      span.setAttribute(attributes.errorType, 'tool_error');
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: typeof event.result === 'string' ? event.result.slice(0, 500) : 'The tool call failed.',
      });
    }
    span.end();
  };

  const endRun = (run: RunSpans, result: AgentResult) => {
    for (const span of run.chats.values()) span.end();
    for (const [spanId, span] of run.tools) {
      span.end();
      run.tools.delete(spanId);
    }
    for (const call of result.toolCalls) toolContexts.delete(call.id);
    const span = run.span;
    setUsageAttributes(span, result.usage);
    span.setAttribute(attributes.terminateReason, result.terminateReason);
    const failed = result.terminateReason === 'error' || result.terminateReason === 'timeout';
    if (failed) {
      const type = result.error?.code ?? result.terminateReason;
      span.setAttribute(attributes.errorType, type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: result.error?.message ?? type });
    }
    span.end();
    runs.delete(result.runId);
  };

  const handle = (event: AgentEvent, scope: Scope) => {
    if (event.type === 'subagent') {
      // The wrapper is an event of the parent run: a parent that records nothing has no child to record.
      if (runs.get(event.runId)?.recording === false) return;
      handle(event.event, {
        agentName: event.agent,
        parentToolCallId: event.toolCallId,
        depth: event.depth,
      });
      return;
    }
    if (event.type === 'agent_start') {
      startRun(event, scope);
      return;
    }
    const run = runs.get(event.runId);
    if (run === undefined) return;
    if (!run.recording) {
      if (event.type === 'agent_end') endRun(run, event.result);
      return;
    }
    switch (event.type) {
      case 'message_start':
        startChat(run, event, scope);
        return;
      case 'message_end':
        endChat(run, event);
        return;
      case 'tool_call_start':
        startTool(run, event);
        return;
      case 'tool_call_end':
        endTool(run, event);
        return;
      case 'retry':
        run.span.addEvent('retry', {
          [attributes.attempt]: event.attempt,
          [attributes.errorType]: event.error.code,
          'agent_core.retry.delay_ms': Math.round(event.delayMs),
        });
        return;
      case 'agent_end':
        endRun(run, event.result);
        return;
      default:
        return;
    }
  };

  const unsubscribe = agent.subscribe((event) => handle(event, rootScope));
  return () => {
    unsubscribe();
    // Spans of a run still in flight are ended as they stand, so none leaks unexported.
    for (const run of runs.values()) {
      for (const span of run.chats.values()) span.end();
      for (const span of run.tools.values()) span.end();
      run.span.end();
    }
    runs.clear();
    toolContexts.clear();
  };
}

function remote(context: TraceContext) {
  return {
    traceId: context.traceId,
    spanId: context.spanId,
    traceFlags: context.sampled === false ? TraceFlags.NONE : TraceFlags.SAMPLED,
    isRemote: true,
  };
}

function recordMessages(
  span: Span,
  version: SemconvVersion,
  direction: 'input' | 'output',
  messages: SemconvMessage[],
  system: string | undefined,
): void {
  if (version === 'latest') {
    if (system !== undefined)
      span.setAttribute(
        contentAttributes.systemInstructions,
        JSON.stringify([{ type: 'text', content: system }]),
      );
    span.setAttribute(
      direction === 'input' ? contentAttributes.inputMessages : contentAttributes.outputMessages,
      JSON.stringify(messages),
    );
    return;
  }
  // Up to v1.36 content travelled as one span event per message.
  if (system !== undefined)
    span.addEvent(contentEvents.system, {
      [contentEvents.bodyAttribute]: JSON.stringify({ content: system }),
    });
  for (const message of messages) {
    const name = direction === 'output' ? contentEvents.choice : contentEvents[message.role];
    span.addEvent(name, { [contentEvents.bodyAttribute]: JSON.stringify(message) });
  }
}
