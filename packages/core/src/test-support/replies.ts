import type { AssistantMessage, ModelEvent, ModelRequest, ToolCallBlock, Usage } from '../index.js';
import { toolsOrchestrator } from './tools-orchestrator.js';

/** A `done` event whose message has text and tool calls, with usage. */
export function reply(
  parts: { text?: string; calls?: { name: string; input: Record<string, unknown>; id?: string }[] },
  usage: Partial<Usage> = {},
): ModelEvent {
  const content: AssistantMessage['content'] = [];
  if (parts.text !== undefined) content.push({ type: 'text', text: parts.text });
  for (const [index, call] of (parts.calls ?? []).entries()) {
    const block: ToolCallBlock = {
      type: 'toolCall',
      id: call.id ?? `call_${call.name}_${index}`,
      name: call.name,
      input: call.input,
    };
    content.push(block);
  }
  return {
    type: 'done',
    message: {
      role: 'assistant',
      content,
      stopReason: (parts.calls?.length ?? 0) > 0 ? 'tool_use' : 'end_turn',
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...usage },
    },
  };
}

/** A reply that waits for `gate` before answering, so parallel runs interleave as a test wants. */
export function gated(gate: Promise<unknown>, event: ModelEvent) {
  return async function* (_request: ModelRequest): AsyncIterable<ModelEvent> {
    await gate;
    yield event;
  };
}

/** A reply that never answers until its call is aborted, then ends as the Provider contract says. */
export function hanging(onStart?: () => void) {
  return async function* (
    _request: ModelRequest,
    signal: AbortSignal | undefined,
  ): AsyncIterable<ModelEvent> {
    onStart?.();
    await new Promise<void>((resolve) => {
      if (signal?.aborted) resolve();
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    yield {
      type: 'done',
      message: { role: 'assistant', content: [], stopReason: 'aborted' },
    };
  };
}

export { toolsOrchestrator };
