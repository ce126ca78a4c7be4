import { AgentError } from '../errors/agent-error.js';
import type { GateRefusal } from './admit-call.js';
import { isToolPauseRequest, pauseForCall } from './paused-call.js';
import type { ToolCallBlock } from '../messages/messages.js';
import type { AnyTool, ToolContext } from '../tool/tool.js';
import type { RunContext } from './run-context.js';

/** How a call ended at the gate: the tool's output, or a refusal (its message goes to the model). */
export type Outcome = { ok: true; output: unknown } | GateRefusal;

/**
 * Runs a call that passed the gate: builds its `ToolContext`, calls the tool
 * and, for an asynchronous tool, waits for it under its timeout and the run's
 * abort (core stops waiting at once, even for a tool that ignores its signal).
 * A synchronous tool costs no promise, timer or callback. Called only by the
 * gate in `execute-tool.ts`, after every check.
 */
export function invokeTool(
  context: RunContext,
  call: ToolCallBlock,
  tool: AnyTool,
  input: unknown,
): Outcome | Promise<Outcome> {
  const state = context.state;
  // The run may have stopped while the call waited for its hook, approver or log entry: a
  // tool started now would wait on a signal that has already fired.
  if (state.stopCause !== undefined) return notRun(call, state.stopCause);
  const run = state.abort;
  const timeoutMs = tool.timeoutMs ?? state.shared.options.toolTimeoutMs;
  const controller = timeoutMs === undefined ? undefined : new AbortController();
  // A plain object with the signal as a value: an accessor that made it only when read would
  // cost more per call than the signal it saves (see `LazyStreamOptions`). The run's signal is
  // made on the run's first tool call and shared by the rest.
  const toolContext: ToolContext = {
    signal: controller?.signal ?? run.signal,
    toolCallId: call.id,
    agent: state.shared.agent,
    run: context.runAccess,
  };
  const governance = state.governance;
  if (governance?.resumes !== undefined) {
    const resume = governance.takeResume(call.id);
    if (resume !== undefined) toolContext.resume = resume;
  }

  let returned: unknown;
  try {
    returned = tool.execute(input as never, toolContext);
  } catch (error) {
    if (isToolPauseRequest(error)) return pauseForCall(context, call, error);
    return { ok: false, message: `Tool '${call.name}' failed: ${errorText(error)}` };
  }
  // A synchronous tool costs no promise, timer or listener.
  if (!isPromiseLike(returned)) return { ok: true, output: returned };

  return new Promise<Outcome>((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Assigned below; a tool that aborted the run synchronously settles before that.
    let stopWaiting = noop;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      stopWaiting();
      resolve(outcome);
    };
    // Core stops waiting at once on abort, even for a tool that ignores its signal.
    stopWaiting = run.onAbort((reason) => {
      controller?.abort(reason);
      settle({
        ok: false,
        message: `Tool '${call.name}' was stopped: the run was ${state.stopCause === 'timeout' ? 'timed out' : 'aborted'}.`,
      });
    });
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
      (error: unknown) => {
        // Once the run stopped waiting (abort, timeout), a late pause request changes nothing.
        if (settled) return;
        settle(
          isToolPauseRequest(error)
            ? pauseForCall(context, call, error)
            : { ok: false, message: `Tool '${call.name}' failed: ${errorText(error)}` },
        );
      },
    );
  });
}

function noop(): void {}

function notRun(call: ToolCallBlock, cause: 'aborted' | 'timeout'): Outcome {
  return {
    ok: false,
    message: `Tool '${call.name}' was not run: the run was ${cause === 'timeout' ? 'timed out' : 'aborted'}.`,
  };
}

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
