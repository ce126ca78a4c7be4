import { AgentError } from '../errors/agent-error.js';
import type { ToolCallBlock, ToolResultMessage } from '../messages/messages.js';
import type { AgentHooks } from '../agent/agent-options.js';
import type { AnyTool, ToolContext, ToolOutput } from '../tool/tool.js';
import { randomSpanId } from '../observability/trace-context.js';
import type { RunContext } from './run-context.js';

type Outcome = { ok: true; output: unknown } | { ok: false; message: string };

/**
 * Runs one tool call: the one place every call passes. Emits
 * `tool_call_start`, refuses unknown tools, truncated calls and invalid input,
 * asks the `beforeToolCall` hook, runs the tool under its timeout and the
 * run's signal, emits `tool_call_end` and appends the result. Tool failures
 * become error results; this never throws for them.
 */
export async function executeTool(context: RunContext, call: ToolCallBlock): Promise<ToolResultMessage> {
  const state = context.state;
  if (!state.pending.has(call.id)) {
    throw new AgentError(
      'tool_call_not_pending',
      `Tool call '${call.id}' (${call.name}) is not an unanswered call of the history; append the assistant message first and run each call once.`,
    );
  }
  const spanId = randomSpanId();
  const parentSpanId = state.turnSpanId;
  context.deliver({
    type: 'tool_call_start',
    runId: state.runId,
    turn: state.turn,
    seq: state.seq++,
    spanId,
    parentSpanId,
    toolCall: call,
  });
  const started = performance.now();
  // Awaited even for a synchronous tool: the yield lets an iterating consumer steer before the next call.
  const finished = settle(await runCall(context, call), started);
  endEvent(context, call, finished, spanId, parentSpanId);
  return appendResult(context, call, finished);
}

/**
 * Runs calls concurrently, at most `settings.maxParallelTools` at once, and
 * appends each result as soon as every earlier call has its own: the history
 * is always in call order, whatever order the tools finish in.
 */
export async function executeTools(
  context: RunContext,
  calls: readonly ToolCallBlock[],
): Promise<ToolResultMessage[]> {
  const limit = Math.max(1, context.state.settings.maxParallelTools);
  const finished: (Finished | undefined)[] = new Array(calls.length);
  const results: ToolResultMessage[] = [];
  let nextToStart = 0;
  let nextToAppend = 0;
  const state = context.state;

  const flush = () => {
    while (nextToAppend < calls.length && finished[nextToAppend] !== undefined) {
      const index = nextToAppend++;
      results.push(appendResult(context, calls[index] as ToolCallBlock, finished[index] as Finished));
    }
  };

  const worker = async () => {
    while (nextToStart < calls.length) {
      const index = nextToStart++;
      const call = calls[index] as ToolCallBlock;
      const started = performance.now();
      // Each call keeps its own span and the turn it started in as parent, whatever order they end in.
      const spanId = randomSpanId();
      const parentSpanId = state.turnSpanId;
      context.deliver({
        type: 'tool_call_start',
        runId: state.runId,
        turn: state.turn,
        seq: state.seq++,
        spanId,
        parentSpanId,
        toolCall: call,
      });
      const done = settle(await runCall(context, call), started);
      finished[index] = done;
      endEvent(context, call, done, spanId, parentSpanId);
      flush();
    }
  };
  const workers: Promise<void>[] = [];
  for (let index = 0; index < Math.min(limit, calls.length); index++) workers.push(worker());
  await Promise.all(workers);
  return results;
}

/** A call's outcome as it is reported and recorded: computed once, used by the event and the history. */
interface Finished {
  content: ToolOutput;
  isError: boolean;
  durationMs: number;
}

function settle(outcome: Outcome, started: number): Finished {
  return {
    content: outcome.ok ? normalizeOutput(outcome.output) : outcome.message,
    isError: !outcome.ok,
    durationMs: performance.now() - started,
  };
}

function endEvent(
  context: RunContext,
  call: ToolCallBlock,
  finished: Finished,
  spanId: string,
  parentSpanId: string,
): void {
  const state = context.state;
  context.deliver({
    type: 'tool_call_end',
    runId: state.runId,
    turn: state.turn,
    seq: state.seq++,
    spanId,
    parentSpanId,
    toolCall: call,
    result: finished.content,
    isError: finished.isError,
    durationMs: finished.durationMs,
  });
}

/** Records the call and appends its result, unless the run already answered it (a tool that ignored its signal). */
function appendResult(context: RunContext, call: ToolCallBlock, finished: Finished): ToolResultMessage {
  const state = context.state;
  if (!state.pending.has(call.id)) return answered(context, call);
  const { content, isError, durationMs } = finished;
  const result: ToolResultMessage = {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content,
    isError,
  };
  state.toolCalls.push({
    id: call.id,
    name: call.name,
    input: call.input,
    result: content,
    isError,
    durationMs,
  });
  context.append(result);
  return result;
}

function answered(context: RunContext, call: ToolCallBlock): ToolResultMessage {
  const messages = context.state.shared.messages;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as ToolResultMessage;
    if (message.role === 'toolResult' && message.toolCallId === call.id) return message;
  }
  throw new AgentError('tool_result_missing', `Tool call '${call.id}' has no result in the history.`);
}

/** Checks and runs one call: a promise only when a hook or the tool itself is asynchronous. */
function runCall(context: RunContext, call: ToolCallBlock): Outcome | Promise<Outcome> {
  const state = context.state;
  if (state.stopCause !== undefined)
    return {
      ok: false,
      message: `Tool '${call.name}' was not run: the run was ${state.stopCause === 'timeout' ? 'timed out' : 'aborted'}.`,
    };
  if (state.truncated.has(call.id)) {
    return {
      ok: false,
      message: `Tool call '${call.name}' was cut off by the output token limit (max_tokens) before its input was complete, so it was not run. Call it again with a shorter input.`,
    };
  }
  const prepared = state.toolsByName.get(call.name);
  if (prepared === undefined) {
    const known = [...state.toolsByName.keys()];
    return {
      ok: false,
      message: `Unknown tool '${call.name}'. Available tools: ${known.length > 0 ? known.join(', ') : 'none'}.`,
    };
  }
  const check = prepared.validate(call.input);
  if (!check.ok) {
    return {
      ok: false,
      message: `Invalid input for tool '${call.name}': ${check.message}. Fix the arguments and call it again.`,
    };
  }
  const hook = state.shared.options.hooks?.beforeToolCall;
  if (hook !== undefined) return askThenInvoke(context, call, prepared.tool, check.value, hook);
  return invoke(context, call, prepared.tool, check.value);
}

async function askThenInvoke(
  context: RunContext,
  call: ToolCallBlock,
  tool: AnyTool,
  input: unknown,
  hook: NonNullable<AgentHooks['beforeToolCall']>,
): Promise<Outcome> {
  try {
    const decision = await hook(call, tool);
    if (decision !== undefined)
      return { ok: false, message: `Tool call '${call.name}' was blocked: ${decision.block}` };
  } catch (error) {
    return {
      ok: false,
      message: `Tool call '${call.name}' was blocked: the beforeToolCall hook failed (${errorText(error)}).`,
    };
  }
  return invoke(context, call, tool, input);
}

function invoke(
  context: RunContext,
  call: ToolCallBlock,
  tool: AnyTool,
  input: unknown,
): Outcome | Promise<Outcome> {
  const state = context.state;
  const signal = context.signal;
  const timeoutMs = tool.timeoutMs ?? state.shared.options.toolTimeoutMs;
  const controller = timeoutMs === undefined ? undefined : new AbortController();
  const toolContext: ToolContext = {
    signal: controller?.signal ?? signal,
    toolCallId: call.id,
    agent: state.shared.agent,
  };

  let returned: unknown;
  try {
    returned = tool.execute(input as never, toolContext);
  } catch (error) {
    return { ok: false, message: `Tool '${call.name}' failed: ${errorText(error)}` };
  }
  // A synchronous tool costs no promise, timer or listener.
  if (!isPromiseLike(returned)) return { ok: true, output: returned };

  return new Promise<Outcome>((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    // Core stops waiting at once on abort, even for a tool that ignores its signal.
    const onAbort = () => {
      controller?.abort(signal.reason);
      settle({
        ok: false,
        message: `Tool '${call.name}' was stopped: the run was ${state.stopCause === 'timeout' ? 'timed out' : 'aborted'}.`,
      });
    };
    signal.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        controller?.abort(new AgentError('tool_timeout', `Tool '${call.name}' timed out.`));
        settle({
          ok: false,
          message: `Tool '${call.name}' timed out after ${timeoutMs} ms and was stopped.`,
        });
      }, timeoutMs);
    }
    (returned as PromiseLike<unknown>).then(
      (output) => settle({ ok: true, output }),
      (error: unknown) => settle({ ok: false, message: `Tool '${call.name}' failed: ${errorText(error)}` }),
    );
  });
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function normalizeOutput(output: unknown): ToolOutput {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output as ToolOutput;
  if (output === undefined || output === null) return '';
  return JSON.stringify(output) ?? String(output);
}
