import type { AssistantMessage, ToolCallBlock } from '../messages/messages.js';

/** One tool call as the stream showed it: started, its argument pieces, and its end when one came. */
interface Streamed {
  id: string;
  name: string;
  pieces: string[];
  call: ToolCallBlock | undefined;
}

/** A streamed call the final message lacks, as a block, with why its input could not be used (if so). */
export interface RecoveredCall {
  block: ToolCallBlock;
  problem: string | undefined;
}

/**
 * The tool calls a provider streamed (`toolcall_start`, `toolcall_delta`,
 * `toolcall_end`), kept so a `done` message that lacks one does not drop it:
 * a call the model made is run or answered, never lost. Made at a stream's
 * first tool-call event.
 */
export class StreamedCalls {
  readonly #calls: Streamed[] = [];

  start(id: string, name: string): void {
    if (this.#find(id) === undefined) this.#calls.push({ id, name, pieces: [], call: undefined });
  }

  delta(id: string, delta: string): void {
    this.#find(id)?.pieces.push(delta);
  }

  end(call: ToolCallBlock): void {
    const known = this.#find(call.id);
    if (known === undefined) this.#calls.push({ id: call.id, name: call.name, pieces: [], call });
    else known.call = call;
  }

  /** The streamed calls `message` does not hold (by id), in stream order. */
  missingFrom(message: AssistantMessage): RecoveredCall[] {
    let missing: RecoveredCall[] | undefined;
    for (const streamed of this.#calls) {
      if (typeof streamed.id !== 'string' || streamed.id === '') continue;
      const held = message.content.some((block) => block.type === 'toolCall' && block.id === streamed.id);
      if (held) continue;
      (missing ??= []).push(recovered(streamed));
    }
    return missing ?? [];
  }

  #find(id: string): Streamed | undefined {
    const calls = this.#calls;
    for (let index = calls.length - 1; index >= 0; index--)
      if ((calls[index] as Streamed).id === id) return calls[index];
    return undefined;
  }
}

function recovered(streamed: Streamed): RecoveredCall {
  if (streamed.call !== undefined) return { block: streamed.call, problem: undefined };
  const text = streamed.pieces.join('');
  const block: ToolCallBlock = { type: 'toolCall', id: streamed.id, name: streamed.name, input: {} };
  if (text.trim() === '') return { block, problem: undefined };
  try {
    const input: unknown = JSON.parse(text);
    if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
      block.input = input as Record<string, unknown>;
      return { block, problem: undefined };
    }
    return { block, problem: 'its streamed arguments are not a JSON object' };
  } catch {
    return { block, problem: `its streamed arguments are not complete JSON (${text.length} characters)` };
  }
}
