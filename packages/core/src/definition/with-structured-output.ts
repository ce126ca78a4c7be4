import { messageText, type AgentMessage, type ToolCallBlock } from '../messages/messages.js';
import type { ModelCallOptions, Orchestrator, OrchestratorContext } from '../orchestrator/orchestrator.js';
import type { StructuredOutput } from './structured-output.js';

/**
 * Wraps an orchestrator so its run delivers structured output, whatever loop
 * it runs: the context it gets ends the run once valid output arrived or the
 * attempts ran out (`nextTurn` answers `completed`), skips tool calls that come
 * after accepted output, and counts invalid attempts. When the inner loop ends
 * without output, the run goes on from the same history (tools that ran are
 * never run again): once with a reminder to call the output tool (the grace
 * turn), and in native mode once per invalid answer, up to the limit.
 */
export function withStructuredOutput(inner: Orchestrator, output: StructuredOutput): Orchestrator {
  return {
    name: inner.name,
    async run(context) {
      const wrapped = outputContext(context, output);
      let end = await inner.run(wrapped);
      for (;;) {
        if (output.finished || end.reason !== 'completed' || context.signal.aborted) break;
        const reminder = nextReminder(context, output);
        if (reminder === undefined) break;
        context.append(reminder);
        context.emit({ type: 'follow_up', message: reminder });
        end = await inner.run(wrapped);
      }
      return output.finish(end, lastText(context));
    },
  };
}

/** The message that continues a run that ended without output, or undefined when it may not go on. */
function nextReminder(context: OrchestratorContext, output: StructuredOutput): AgentMessage | undefined {
  if (output.mode === 'native') {
    const issues = output.checkText(lastText(context));
    if (issues === undefined || output.finished) return undefined;
    return {
      role: 'user',
      content: `Your answer does not match the required JSON schema: ${issues
        .map((issue) => `${issue.path}: ${issue.message}`)
        .join('; ')}. Answer again with only the corrected JSON.`,
    };
  }
  if (output.graceUsed) return undefined;
  output.graceUsed = true;
  return {
    role: 'user',
    content: `You answered without calling ${output.toolName}. Call ${output.toolName} now, with your final answer as its arguments; the task ends when you do.`,
  };
}

function lastText(context: OrchestratorContext): string {
  const messages = context.messages;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as AgentMessage;
    if ((message as { role: string }).role === 'assistant') return messageText(message as never);
  }
  return '';
}

/** The run's context with the output rules on top; everything else is the run's own. */
function outputContext(context: OrchestratorContext, output: StructuredOutput): OrchestratorContext {
  const skipReason = `the task was already completed with ${output.toolName}.`;
  const overrides: Partial<OrchestratorContext> = {
    nextTurn: () => (output.finished ? 'completed' : context.nextTurn()),
    executeTool: async (call: ToolCallBlock) => {
      if (output.accepted) return context.skipTool(call, skipReason);
      const result = await context.executeTool(call);
      output.observe(call, result);
      return result;
    },
    executeTools: async (calls: readonly ToolCallBlock[]) => {
      if (output.accepted) return calls.map((call) => context.skipTool(call, skipReason));
      const results = await context.executeTools(calls);
      for (const [index, result] of results.entries()) output.observe(calls[index] as ToolCallBlock, result);
      return results;
    },
  };
  if (output.mode === 'native') {
    overrides.callModel = (options?: ModelCallOptions) =>
      context.callModel({ responseFormat: output.responseFormat(), ...options });
  } else if (output.mode === 'forced') {
    // Every call must call the output tool: the provider's tool forcing (Anthropic's structured output).
    const toolChoice = { type: 'tool', name: output.toolName } as const;
    overrides.callModel = (options?: ModelCallOptions) => context.callModel({ toolChoice, ...options });
  }
  const bound = new Map<PropertyKey, unknown>();
  // A proxy, so members the context gains later pass through unchanged.
  return new Proxy(context, {
    get(target, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof OrchestratorContext];
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(key);
      if (method === undefined) {
        method = value.bind(target);
        bound.set(key, method);
      }
      return method;
    },
  });
}
