import type { RunHooks, ToolCallDecision } from './run-options.js';
import type { GateRefusal } from './admit-call.js';
import type { ToolCallBlock } from '../messages/messages.js';
import type { AnyTool } from '../tool/tool.js';
import { errorText, isPromiseLike } from './invoke-tool.js';
import type { RunContext } from './run-context.js';

const defaultHookTimeoutMs = 30_000;

/**
 * Asks the `beforeToolCall` hook about a call. It fails closed: a throw, a
 * rejection or no answer within `hookTimeoutMs` blocks the call, as a block does.
 */
export async function askHook(
  context: RunContext,
  call: ToolCallBlock,
  tool: AnyTool,
  hook: NonNullable<RunHooks['beforeToolCall']>,
): Promise<GateRefusal | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const answer = hook(call, tool);
    let decision: ToolCallDecision;
    if (isPromiseLike(answer)) {
      const timeoutMs = context.state.shared.options.hookTimeoutMs ?? defaultHookTimeoutMs;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const raced = await Promise.race([answer, timedOut]);
      if (raced === 'timeout') {
        return {
          ok: false,
          message: `Tool call '${call.name}' was blocked: the beforeToolCall hook did not answer within ${timeoutMs} ms (hookTimeoutMs).`,
        };
      }
      decision = raced;
    } else decision = answer;
    if (decision !== undefined)
      return { ok: false, message: `Tool call '${call.name}' was blocked: ${decision.block}` };
    return undefined;
  } catch (error) {
    return {
      ok: false,
      message: `Tool call '${call.name}' was blocked: the beforeToolCall hook failed (${errorText(error)}).`,
    };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
