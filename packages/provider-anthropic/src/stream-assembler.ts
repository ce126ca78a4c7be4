import {
  type AssistantMessage,
  type ModelEvent,
  type ModelInfo,
  ProviderError,
  type StopReason,
  type TextBlock,
  type ThinkingBlock,
  type ToolCallBlock,
  type Usage,
  costOf,
} from '@agent-core/core';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ProviderNames } from './provider-label.js';

type ContentBlock = TextBlock | ThinkingBlock | ToolCallBlock;

// Deltas are kept as arrays of strings and joined once at the block's end, so
// assembling a block costs linear time however many pieces it arrives in.
type OpenBlock =
  | { type: 'text'; parts: string[] }
  | { type: 'thinking'; parts: string[]; signature: string[] }
  | { type: 'redacted'; data: string }
  | { type: 'tool'; id: string; name: string; parts: string[]; startInput: unknown }
  | { type: 'ignored' };

interface UsageFields {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** The outcome of one stream event: model events to emit, and an error that ends the stream. */
export interface AcceptResult {
  events: ModelEvent[];
  error?: ProviderError;
}

const stopReasons: Record<string, StopReason> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  refusal: 'refusal',
  // The server paused a long turn; to the loop it is a finished turn.
  pause_turn: 'end_turn',
  // The output was cut by the context window: as for max_tokens, a half tool
  // call must not run.
  model_context_window_exceeded: 'max_tokens',
};

/** Maps an Anthropic stop reason to core's; unknown and missing reasons are `end_turn`. */
export function toStopReason(reason: string | null | undefined): StopReason {
  return (reason === null || reason === undefined ? undefined : stopReasons[reason]) ?? 'end_turn';
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns the raw events of one Messages API stream into model events and the
 * final `AssistantMessage`. One instance per call.
 */
export class StreamAssembler {
  private readonly open = new Map<number, OpenBlock>();
  private readonly closed: { index: number; block: ContentBlock }[] = [];
  private readonly usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  private stopReason: StopReason = 'end_turn';
  // A tool block whose arguments did not parse at its stop. Whether it is a
  // call cut by the output limit or a malformed one is known only from the
  // stop reason in the message_delta that follows, so the decision waits.
  private unparsed: { index: number; open: Extract<OpenBlock, { type: 'tool' }>; reason: string } | undefined;
  /** True once `message_stop` arrived: the message is whole. */
  complete = false;

  constructor(
    private readonly model: string,
    private readonly pricing: ModelInfo['pricing'] | undefined,
    private readonly names: ProviderNames,
  ) {}

  /** Applies one stream event. */
  accept(event: RawMessageStreamEvent): AcceptResult {
    switch (event.type) {
      case 'message_start':
        this.applyUsage(event.message.usage);
        return { events: [{ type: 'usage', usage: this.currentUsage() }] };
      case 'message_delta': {
        const hasStopReason = event.delta.stop_reason !== null && event.delta.stop_reason !== undefined;
        if (hasStopReason) this.stopReason = toStopReason(event.delta.stop_reason);
        this.applyUsage(event.usage);
        const usage: ModelEvent = { type: 'usage', usage: this.currentUsage() };
        if (!hasStopReason || this.unparsed === undefined) return { events: [usage] };
        const settled = this.settleUnparsed();
        return { events: [...settled.events, usage], ...(settled.error ? { error: settled.error } : {}) };
      }
      case 'message_stop':
        // A stream without a stop reason cannot excuse arguments that do not parse.
        if (this.unparsed !== undefined) return this.settleUnparsed();
        this.complete = true;
        return { events: [] };
      case 'content_block_start':
        // Another block after it: the unparsable call was not the one the limit cut.
        if (this.unparsed !== undefined) return this.settleUnparsed();
        return this.startBlock(event.index, event.content_block);
      case 'content_block_delta':
        return this.applyDelta(event.index, event.delta);
      case 'content_block_stop':
        return this.stopBlock(event.index);
      default:
        // Event types added after this SDK version carry nothing we map.
        return { events: [] };
    }
  }

  /** The finished message, after `message_stop`. */
  message(): AssistantMessage {
    return this.build(this.stopReason, false);
  }

  /**
   * The message so far, for an aborted call: finished blocks plus the text
   * and thinking streamed so far; a tool call still streaming is dropped, as
   * its input is incomplete.
   */
  abortedMessage(): AssistantMessage {
    return this.build('aborted', true);
  }

  private build(stopReason: StopReason, includeOpen: boolean): AssistantMessage {
    const blocks = [...this.closed];
    if (includeOpen) {
      for (const [index, open] of this.open) {
        if (open.type === 'text' && open.parts.length > 0) {
          blocks.push({ index, block: { type: 'text', text: open.parts.join('') } });
        } else if (open.type === 'thinking' && open.parts.length > 0) {
          // No signature: it was cut off, so it is kept for display and never replayed.
          blocks.push({ index, block: { type: 'thinking', thinking: open.parts.join('') } });
        }
      }
    }
    blocks.sort((left, right) => left.index - right.index);
    return {
      role: 'assistant',
      content: blocks.map((entry) => entry.block),
      stopReason,
      usage: this.currentUsage(),
      provider: this.names.provider,
      model: this.model,
    };
  }

  private startBlock(
    index: number,
    block: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'],
  ): AcceptResult {
    switch (block.type) {
      case 'text':
        this.open.set(index, { type: 'text', parts: block.text === '' ? [] : [block.text] });
        return { events: block.text === '' ? [] : [{ type: 'text_delta', delta: block.text }] };
      case 'thinking': {
        const parts = block.thinking === '' ? [] : [block.thinking];
        const signature = block.signature === '' || block.signature === undefined ? [] : [block.signature];
        this.open.set(index, { type: 'thinking', parts, signature });
        return { events: parts.length === 0 ? [] : [{ type: 'thinking_delta', delta: block.thinking }] };
      }
      case 'redacted_thinking':
        this.open.set(index, { type: 'redacted', data: block.data });
        return { events: [] };
      case 'tool_use':
        this.open.set(index, {
          type: 'tool',
          id: block.id,
          name: block.name,
          parts: [],
          startInput: block.input,
        });
        return { events: [{ type: 'toolcall_start', id: block.id, name: block.name }] };
      default:
        // Server tools (web search, code execution) run on Anthropic's side;
        // their blocks have no provider-neutral form.
        this.open.set(index, { type: 'ignored' });
        return { events: [] };
    }
  }

  private applyDelta(
    index: number,
    delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'],
  ): AcceptResult {
    const open = this.open.get(index);
    if (open === undefined) return { events: [] };
    if (delta.type === 'text_delta' && open.type === 'text') {
      open.parts.push(delta.text);
      return { events: [{ type: 'text_delta', delta: delta.text }] };
    }
    if (delta.type === 'thinking_delta' && open.type === 'thinking') {
      open.parts.push(delta.thinking);
      return { events: [{ type: 'thinking_delta', delta: delta.thinking }] };
    }
    if (delta.type === 'signature_delta' && open.type === 'thinking') {
      open.signature.push(delta.signature);
      return { events: [] };
    }
    if (delta.type === 'input_json_delta' && open.type === 'tool') {
      if (delta.partial_json === '') return { events: [] };
      open.parts.push(delta.partial_json);
      return { events: [{ type: 'toolcall_delta', id: open.id, delta: delta.partial_json }] };
    }
    return { events: [] };
  }

  private stopBlock(index: number): AcceptResult {
    const open = this.open.get(index);
    if (open === undefined) return { events: [] };
    this.open.delete(index);
    switch (open.type) {
      case 'text':
        this.closed.push({ index, block: { type: 'text', text: open.parts.join('') } });
        return { events: [] };
      case 'thinking': {
        const block: ThinkingBlock = { type: 'thinking', thinking: open.parts.join('') };
        if (open.signature.length > 0) block.signature = open.signature.join('');
        this.closed.push({ index, block });
        return { events: [] };
      }
      case 'redacted':
        // Kept opaque so it can be replayed to the same model unchanged.
        this.closed.push({ index, block: { type: 'thinking', thinking: open.data, redacted: true } });
        return { events: [] };
      case 'tool':
        return this.finishToolCall(index, open);
      default:
        return { events: [] };
    }
  }

  private finishToolCall(index: number, open: Extract<OpenBlock, { type: 'tool' }>): AcceptResult {
    const json = open.parts.join('');
    let input: unknown;
    if (json.trim() === '') {
      // No deltas: a tool without arguments. The start event's input is `{}`
      // when streamed, but a gateway may put the whole input there.
      input = isPlainObject(open.startInput) ? open.startInput : {};
    } else {
      try {
        input = JSON.parse(json);
      } catch (error) {
        this.unparsed = { index, open, reason: (error as Error).message };
        return { events: [] };
      }
    }
    if (!isPlainObject(input)) {
      this.unparsed = { index, open, reason: 'it is not a JSON object' };
      return { events: [] };
    }
    return this.closeToolCall(index, open, input);
  }

  private closeToolCall(
    index: number,
    open: Extract<OpenBlock, { type: 'tool' }>,
    input: Record<string, unknown>,
  ): AcceptResult {
    const toolCall: ToolCallBlock = { type: 'toolCall', id: open.id, name: open.name, input };
    this.closed.push({ index, block: toolCall });
    return { events: [{ type: 'toolcall_end', toolCall }] };
  }

  /**
   * Decides the call whose arguments did not parse. Cut by the output limit,
   * it is the last block and its stop reason is `max_tokens`: it is kept with
   * `{}` input, and core answers it with an error naming the limit instead of
   * running it. Any other way, its arguments are `malformed`.
   */
  private settleUnparsed(): AcceptResult {
    const unparsed = this.unparsed;
    if (unparsed === undefined) return { events: [] };
    this.unparsed = undefined;
    if (this.stopReason === 'max_tokens') return this.closeToolCall(unparsed.index, unparsed.open, {});
    return { events: [], error: this.malformedInput(unparsed.open, unparsed.reason) };
  }

  private malformedInput(open: Extract<OpenBlock, { type: 'tool' }>, reason: string): ProviderError {
    return new ProviderError({
      kind: 'malformed',
      message: `${this.names.label} sent arguments for tool "${open.name}" (call ${open.id}) that cannot be parsed: ${reason}.`,
      provider: this.names.provider,
    });
  }

  // Counts in message_delta are cumulative, so each one replaces the value
  // from message_start rather than adding to it.
  private applyUsage(fields: UsageFields | null | undefined): void {
    if (fields === null || fields === undefined) return;
    if (isCount(fields.input_tokens)) this.usage.input = fields.input_tokens;
    if (isCount(fields.output_tokens)) this.usage.output = fields.output_tokens;
    if (isCount(fields.cache_read_input_tokens)) this.usage.cacheRead = fields.cache_read_input_tokens;
    if (isCount(fields.cache_creation_input_tokens))
      this.usage.cacheWrite = fields.cache_creation_input_tokens;
  }

  private currentUsage(): Usage {
    const usage: Usage = { ...this.usage };
    if (this.pricing !== undefined) usage.cost = costOf(usage, this.pricing);
    return usage;
  }
}
