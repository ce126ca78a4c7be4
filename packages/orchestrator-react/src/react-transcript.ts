import type {
  AssistantMessage,
  ImageBlock,
  Message,
  TextBlock,
  ToolCallBlock,
  ToolResultMessage,
  UserMessage,
} from '@agent-core/core';

/**
 * The history as the model sees it (after the agent's `convertToLlm`) in the
 * ReAct text protocol, kept up to date incrementally: `sync` converts only
 * the messages added since the last call, so the work per step does not grow
 * with the history. It lives for one run, so nothing of it outlives the run.
 *
 * - an assistant message becomes `Thought: ... / Action: ... / Action Input: ...`
 *   for its first tool call, or `Thought: ... / Final Answer: ...` without one;
 *   later calls of the same message get their own Action right before their Observation;
 * - a tool result becomes a user message `Observation: ...` (images kept);
 * - user messages pass as they are.
 */
export class ReactTranscript {
  /** The converted messages, for `callModel({ messages })`. */
  readonly messages: Message[] = [];
  #converted = 0;
  #last: Message | undefined;
  // Calls after the first of an assistant message: their Action is written just before their Observation.
  readonly #deferred = new Map<string, ToolCallBlock>();

  /**
   * Converts what was added to `source` since the last call and returns
   * `messages`. A source that is not the last one grown (a `convertToLlm`
   * that rewrote earlier messages) is converted again from the start.
   */
  sync(source: readonly Message[]): Message[] {
    const grown =
      source.length >= this.#converted &&
      (this.#converted === 0 || source[this.#converted - 1] === this.#last);
    if (!grown) {
      this.messages.length = 0;
      this.#deferred.clear();
      this.#converted = 0;
    }
    for (let index = this.#converted; index < source.length; index++) {
      this.#convert(source[index] as Message);
    }
    this.#converted = source.length;
    this.#last = source[source.length - 1];
    return this.messages;
  }

  /** Adds a model reply that broke the format and the correction sent back, for the model's eyes only. */
  addScratch(reply: string, correction: string): void {
    if (reply.trim() !== '') this.messages.push(assistantText(reply));
    this.messages.push({ role: 'user', content: correction });
  }

  #convert(message: Message): void {
    const role = (message as { role: string }).role;
    if (role === 'user') this.messages.push(message as UserMessage);
    else if (role === 'assistant') this.#assistant(message as AssistantMessage);
    else if (role === 'toolResult') this.#observation(message as ToolResultMessage);
  }

  #assistant(message: AssistantMessage): void {
    // One pass, no arrays: thinking blocks joined by line breaks, texts kept both ways until
    // it is known whether they are an answer (joined as they are) or reasoning next to a call.
    let thought = '';
    let reasoning = '';
    let answer = '';
    let first: ToolCallBlock | undefined;
    for (const block of message.content) {
      if (block.type === 'thinking') {
        if (block.thinking !== '' && block.redacted !== true)
          thought = thought === '' ? block.thinking : `${thought}\n${block.thinking}`;
      } else if (block.type === 'text') {
        if (block.text !== '') {
          answer += block.text;
          reasoning = reasoning === '' ? block.text : `${reasoning}\n${block.text}`;
        }
      } else if (first === undefined) first = block;
      // Calls after the first get their Action right before their Observation.
      else this.#deferred.set(block.id, block);
    }
    // Text next to a tool call (from a native tool-calling turn) is reasoning, not an answer.
    if (first !== undefined && reasoning !== '')
      thought = thought === '' ? reasoning : `${thought}\n${reasoning}`;
    // Joined into one flat string: pieces added with `+` would stay a chain of string parts
    // for the rest of the run, several times the size of the text.
    const parts: string[] = [];
    if (thought !== '') parts.push('Thought: ', thought);
    if (first !== undefined) {
      if (parts.length > 0) parts.push('\n');
      pushAction(parts, first);
    } else if (answer !== '') {
      if (parts.length > 0) parts.push('\n');
      parts.push('Final Answer: ', answer);
    }
    if (parts.length > 0) this.messages.push(assistantText(parts.join('')));
  }

  #observation(result: ToolResultMessage): void {
    const deferred = this.#deferred.get(result.toolCallId);
    if (deferred !== undefined) {
      this.#deferred.delete(result.toolCallId);
      this.messages.push(assistantText(actionText(deferred)));
    }
    if (typeof result.content === 'string') {
      this.messages.push({ role: 'user', content: `Observation: ${result.content}` });
      return;
    }
    let text = '';
    const images: ImageBlock[] = [];
    for (const block of result.content) {
      if (block.type === 'text') text += block.text;
      else images.push(block);
    }
    const content: (TextBlock | ImageBlock)[] = [{ type: 'text', text: `Observation: ${text}` }, ...images];
    this.messages.push({ role: 'user', content });
  }
}

function actionText(call: ToolCallBlock): string {
  return pushAction([], call).join('');
}

/** Adds the pieces of a call's `Action:` and `Action Input:` lines to `parts`, to be joined once. */
function pushAction(parts: string[], call: ToolCallBlock): string[] {
  parts.push('Action: ', call.name, '\nAction Input: ', JSON.stringify(call.input));
  return parts;
}

function assistantText(text: string): AssistantMessage {
  return { role: 'assistant', content: [{ type: 'text', text }], stopReason: 'end_turn' };
}
