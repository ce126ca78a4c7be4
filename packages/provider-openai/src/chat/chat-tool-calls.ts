import { ProviderError } from '@agent-core/core';
import type { ModelEvent } from '@agent-core/core';
import type { AssistantMessageBuilder } from '../assistant-message-builder.js';
import { parseToolArguments } from '../parse-tool-arguments.js';

/**
 * A tool call delta as compatible servers really send it: OpenAI always sets
 * `index` and sends `id` and `name` once; others omit `index` or `id`, repeat
 * `id` in every chunk, or send the whole call in one chunk.
 */
export interface ToolCallDelta {
  index?: number | null;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

interface PendingCall {
  ordinal: number;
  index: number | undefined;
  id: string | undefined;
  name: string | undefined;
  /** Argument pieces; joined once when the call ends. */
  pieces: string[];
  slot: number | undefined;
  startedId: string | undefined;
  ended: boolean;
}

/**
 * Assembles Chat Completions tool call deltas into tool calls, emitting
 * `toolcall_start` when a call's name is known, `toolcall_delta` for each
 * argument piece, and `toolcall_end` with the parsed input at the finish.
 */
export class ChatToolCalls {
  private readonly calls: PendingCall[] = [];
  private readonly byIndex = new Map<number, PendingCall>();
  private readonly byId = new Map<string, PendingCall>();
  private last: PendingCall | undefined;

  constructor(
    private readonly builder: AssistantMessageBuilder,
    /** Prefix of the ids made up for calls the server sent without one; unique per stream. */
    private readonly idPrefix: string,
  ) {}

  /** Takes the tool call deltas of one chunk and returns the events they cause. */
  accept(deltas: readonly ToolCallDelta[]): ModelEvent[] {
    const events: ModelEvent[] = [];
    deltas.forEach((delta, position) => {
      const call = this.route(delta, position, deltas.length);
      if (call.ended) return;
      const name = delta.function?.name;
      if (call.name === undefined && typeof name === 'string' && name !== '') call.name = name;
      const piece = delta.function?.arguments;
      if (typeof piece === 'string' && piece !== '') {
        call.pieces.push(piece);
        if (call.startedId !== undefined)
          events.push({ type: 'toolcall_delta', id: call.startedId, delta: piece });
      }
      if (call.startedId === undefined && call.name !== undefined) this.start(call, events);
    });
    return events;
  }

  /**
   * Ends every started call: parses its arguments and emits `toolcall_end`.
   * `truncated` (the output limit cut the reply) turns unparsable arguments
   * into `{}` so core can answer the half call with an error result; otherwise
   * they are a `malformed` error.
   */
  finish(truncated: boolean): ModelEvent[] {
    const events: ModelEvent[] = [];
    for (const call of this.calls) {
      if (call.ended || call.startedId === undefined || call.slot === undefined) continue;
      call.ended = true;
      const text = call.pieces.join('');
      let input = parseToolArguments(text);
      if (input === undefined) {
        if (!truncated) {
          throw new ProviderError({
            kind: 'malformed',
            message: `The model sent arguments for tool ${call.name} that are not a JSON object: ${text.slice(0, 200)}`,
          });
        }
        input = {};
      }
      const toolCall = { type: 'toolCall' as const, id: call.startedId, name: call.name!, input };
      this.builder.completeToolCall(call.slot, toolCall);
      events.push({ type: 'toolcall_end', toolCall });
    }
    return events;
  }

  private route(delta: ToolCallDelta, position: number, count: number): PendingCall {
    const id = typeof delta.id === 'string' && delta.id !== '' ? delta.id : undefined;
    const index = typeof delta.index === 'number' ? delta.index : undefined;
    if (id !== undefined) {
      const known = this.byId.get(id);
      if (known !== undefined) return this.touch(known);
      const atIndex = index === undefined ? undefined : this.byIndex.get(index);
      // The id only in the first chunk, or a server that names the id later: same index, no id yet.
      if (atIndex !== undefined && atIndex.id === undefined && !atIndex.ended) {
        atIndex.id = id;
        this.byId.set(id, atIndex);
        return this.touch(atIndex);
      }
      return this.create(index, id);
    }
    if (index !== undefined) return this.touch(this.byIndex.get(index) ?? this.create(index, undefined));
    // Neither index nor id: several entries in one chunk are told apart by position,
    // a single one continues the call streamed last.
    if (count > 1) return this.touch(this.calls[position] ?? this.create(undefined, undefined));
    return this.touch(this.last ?? this.create(undefined, undefined));
  }

  private create(index: number | undefined, id: string | undefined): PendingCall {
    const call: PendingCall = {
      ordinal: this.calls.length,
      index,
      id,
      name: undefined,
      pieces: [],
      slot: undefined,
      startedId: undefined,
      ended: false,
    };
    this.calls.push(call);
    if (index !== undefined) this.byIndex.set(index, call);
    if (id !== undefined) this.byId.set(id, call);
    return this.touch(call);
  }

  private touch(call: PendingCall): PendingCall {
    this.last = call;
    return call;
  }

  private start(call: PendingCall, events: ModelEvent[]): void {
    const id = call.id ?? `${this.idPrefix}${call.ordinal}`;
    call.startedId = id;
    call.slot = this.builder.reserveToolCall();
    events.push({ type: 'toolcall_start', id, name: call.name! });
    // Argument pieces that came before the name went unreported until now.
    if (call.pieces.length > 0) events.push({ type: 'toolcall_delta', id, delta: call.pieces.join('') });
  }
}
