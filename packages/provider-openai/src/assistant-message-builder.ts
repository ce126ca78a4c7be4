import type { AssistantMessage, StopReason, ThinkingBlock, ToolCallBlock, Usage } from '@agent-core/core';

type Part =
  | { kind: 'text'; pieces: string[] }
  | { kind: 'thinking'; key: string | undefined; pieces: string[]; signature?: string; redacted?: boolean }
  | { kind: 'toolCall'; block: ToolCallBlock | undefined };

/**
 * Collects a streamed reply into an `AssistantMessage`, blocks in the order
 * they began. Deltas are pushed to arrays and joined once at the end, so a
 * long reply costs linear time. A tool call holds its place from its start;
 * one never completed (the stream was cut or aborted) is left out.
 */
export class AssistantMessageBuilder {
  private readonly parts: Part[] = [];
  /** The text or thinking part that the next delta of its kind extends. */
  private open: Part | undefined;

  /** Adds a piece of answer text. */
  appendText(delta: string): void {
    if (delta === '') return;
    let part = this.open;
    if (part?.kind !== 'text') {
      part = { kind: 'text', pieces: [] };
      this.parts.push(part);
      this.open = part;
    }
    part.pieces.push(delta);
  }

  /** Starts a thinking block for a reasoning item, so it keeps its place even if no text arrives. */
  openThinking(key: string): void {
    if (this.findThinking(key) !== undefined) return;
    const part: Part = { kind: 'thinking', key, pieces: [] };
    this.parts.push(part);
    this.open = part;
  }

  /** Adds a piece of reasoning; `key` ties it to a reasoning item when the API has item ids. */
  appendThinking(delta: string, key?: string): void {
    if (delta === '') return;
    let part = key === undefined ? this.open : this.findThinking(key);
    if (part?.kind !== 'thinking' || part.key !== key) {
      part = { kind: 'thinking', key, pieces: [] };
      this.parts.push(part);
    }
    this.open = part;
    part.pieces.push(delta);
  }

  /** Attaches the replay data of a reasoning item to its thinking block. */
  sealThinking(key: string, signature: string, redacted: boolean): void {
    if (this.findThinking(key) === undefined) this.openThinking(key);
    const part = this.findThinking(key);
    if (part === undefined) return;
    part.signature = signature;
    if (redacted) part.redacted = true;
  }

  /** Keeps a place for a tool call that has started; returns the handle for `completeToolCall`. */
  reserveToolCall(): number {
    this.parts.push({ kind: 'toolCall', block: undefined });
    this.open = undefined;
    return this.parts.length - 1;
  }

  /** Fills the place of a started tool call once its arguments are complete. */
  completeToolCall(slot: number, block: ToolCallBlock): void {
    const part = this.parts[slot];
    if (part?.kind === 'toolCall') part.block = block;
  }

  /** True when at least one tool call is complete. */
  hasToolCalls(): boolean {
    return this.parts.some((part) => part.kind === 'toolCall' && part.block !== undefined);
  }

  /** The message so far, with the given stop reason. */
  build(
    stopReason: StopReason,
    details: { usage?: Usage; provider: string; model: string },
  ): AssistantMessage {
    const content: AssistantMessage['content'] = [];
    for (const part of this.parts) {
      if (part.kind === 'text') {
        const text = part.pieces.join('');
        if (text !== '') content.push({ type: 'text', text });
      } else if (part.kind === 'thinking') {
        const thinking = part.pieces.join('');
        if (thinking === '' && part.signature === undefined) continue;
        const block: ThinkingBlock = { type: 'thinking', thinking };
        if (part.signature !== undefined) block.signature = part.signature;
        if (part.redacted === true) block.redacted = true;
        content.push(block);
      } else if (part.block !== undefined) {
        content.push(part.block);
      }
    }
    const message: AssistantMessage = {
      role: 'assistant',
      content,
      stopReason,
      provider: details.provider,
      model: details.model,
    };
    if (details.usage !== undefined) message.usage = details.usage;
    return message;
  }

  private findThinking(key: string): Extract<Part, { kind: 'thinking' }> | undefined {
    for (const part of this.parts) if (part.kind === 'thinking' && part.key === key) return part;
    return undefined;
  }
}
