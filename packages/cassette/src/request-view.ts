import {
  type AgentMessage,
  type CompactionMessage,
  compactionToMessage,
  isCompactionMessage,
  isModelMessage,
  type Message,
  type UserMessage,
} from '@agent-core/core';

/** How a history becomes what the model is sent; an agent's `convertToLlm`. */
export type ConvertToLlm = (messages: readonly AgentMessage[]) => readonly Message[];

/** Core's default: the model's messages, app-defined kinds left out. */
export const modelMessagesOnly: ConvertToLlm = (messages) => messages.filter(isModelMessage);

/**
 * The messages an agent sent for the model call that answered with
 * `history[end]`: the history before it, as the context window showed it
 * after its latest compaction (the compaction's text as a user message, the
 * messages it kept, then everything from `firstKept`), through `convert`.
 * The history's own message objects are used, so consecutive views share them.
 */
export class RequestView {
  readonly #history: readonly AgentMessage[];
  readonly #convert: ConvertToLlm;
  readonly #markers = new WeakMap<CompactionMessage, UserMessage>();
  /** Index of the latest compaction record seen, as views are asked in order. */
  #compaction = -1;
  #scanned = 0;
  /** Whether the history so far holds an app-defined kind that the default conversion leaves out. */
  #appKinds = false;

  constructor(history: readonly AgentMessage[], convert: ConvertToLlm = modelMessagesOnly) {
    this.#history = history;
    this.#convert = convert;
  }

  /**
   * The request before `history[end]`, as the first `length` of `messages`
   * (the history itself when nothing is left out: no copy); ask with growing `end`.
   */
  before(end: number): { messages: readonly Message[]; length: number } {
    const history = this.#history;
    for (; this.#scanned < end; this.#scanned++) {
      const message = history[this.#scanned];
      if (isCompactionMessage(message)) this.#compaction = this.#scanned;
      else if (!isModelMessage(message as AgentMessage)) this.#appKinds = true;
    }
    if (this.#compaction === -1) {
      if (!this.#appKinds && this.#convert === modelMessagesOnly)
        return { messages: history as readonly Message[], length: end };
      return whole(this.#convert(history.slice(0, end)));
    }
    const record = history[this.#compaction] as CompactionMessage;
    let marker = this.#markers.get(record);
    if (marker === undefined) {
      marker = compactionToMessage(record);
      this.#markers.set(record, marker);
    }
    const view: AgentMessage[] = [marker];
    for (const index of record.keptBefore) {
      const kept = history[index];
      if (kept !== undefined) view.push(kept);
    }
    for (let index = record.firstKept; index < end; index++) {
      const message = history[index] as AgentMessage;
      if (!isCompactionMessage(message)) view.push(message);
    }
    return whole(this.#convert(view));
  }
}

function whole(messages: readonly Message[]): { messages: readonly Message[]; length: number } {
  return { messages, length: messages.length };
}
