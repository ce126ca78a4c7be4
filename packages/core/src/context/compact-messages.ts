import { ContextOverflowError } from '../errors/context-overflow-error.js';
import type { AgentMessage } from '../messages/messages.js';

/** Decides whether a message must survive every compaction. */
export type PinnedMessage = (message: AgentMessage, index: number) => boolean;

/** What `compactMessages` works on. Every count is in tokens. */
export interface CompactMessagesInput {
  /** The messages as they would be sent, oldest first. */
  messages: readonly AgentMessage[];
  /** Tokens of each message, index for index. */
  counts: readonly number[];
  /** Tokens the rest of the request takes: system prompt and tools. Default 0. */
  overhead?: number;
  /** Compact down to this many tokens (overhead, kept messages and the marker). */
  target: number;
  /** The request may not exceed this; when it would even after compaction, `ContextOverflowError`. */
  limit: number;
  /** Tokens of the marker or summary that stands in for what is dropped. */
  markerTokens: number;
  /** True when `messages[0]` stands for an earlier compaction: it is always dropped first. */
  startsWithMarker?: boolean;
  /** Messages that are never dropped, besides system-level ones and the newest user message. */
  pinned?: PinnedMessage;
}

/** Which messages a compaction keeps; the marker goes first, then `kept` in order. */
export interface CompactionPlan {
  /** Indexes of the messages kept, in order. */
  kept: number[];
  /** Indexes of the messages dropped, in order. */
  dropped: number[];
  /** Index of the first message after the last dropped one. */
  cut: number;
  tokensBefore: number;
  /** Tokens after compaction, the marker included when anything was dropped. */
  tokensAfter: number;
}

/**
 * Plans a compaction, without changing anything: drops whole groups (a
 * message, or an assistant message with all its tool results), oldest first,
 * until the total is at most `target`. Never drops system-level messages
 * (role `system`), pinned ones, the newest user message or the newest group,
 * so what is kept stays a valid history. Throws `ContextOverflowError` when
 * the total still exceeds `limit` with everything droppable gone.
 */
export function compactMessages(input: CompactMessagesInput): CompactionPlan {
  const { messages, counts, target, limit, markerTokens } = input;
  const overhead = input.overhead ?? 0;
  let newestUser = -1;
  for (let index = messages.length - 1; index >= 0; index--) {
    if ((messages[index] as { role: string }).role === 'user') {
      if (!(index === 0 && input.startsWithMarker === true)) newestUser = index;
      break;
    }
  }
  let tokensBefore = overhead;
  for (let index = 0; index < messages.length; index++) tokensBefore += counts[index] ?? 0;

  const dropped: number[] = [];
  const kept: number[] = [];
  let droppedTokens = 0;
  let cut = 0;
  let current = tokensBefore;
  let start = 0;
  while (start < messages.length) {
    const end = groupEnd(messages, start);
    const isMarker = start === 0 && input.startsWithMarker === true;
    const fits = dropped.length > 0 && current <= target;
    if (fits || (!isMarker && isProtected(messages, start, end, newestUser, input.pinned))) {
      for (let index = start; index < end; index++) kept.push(index);
    } else {
      for (let index = start; index < end; index++) {
        dropped.push(index);
        droppedTokens += counts[index] ?? 0;
      }
      cut = end;
      current = tokensBefore - droppedTokens + markerTokens;
    }
    start = end;
  }
  const tokensAfter = dropped.length > 0 ? current : tokensBefore;
  if (tokensAfter > limit) {
    throw new ContextOverflowError(
      `The history cannot fit the context window: what must be kept (pinned and system-level messages, the newest user message and the newest tool call with its results) takes ${tokensAfter} tokens, over the budget of ${limit}. Shorten the largest message, unpin messages, or raise contextWindow.budgetTokens.`,
      { tokens: tokensAfter, budget: limit },
    );
  }
  return { kept, dropped, cut, tokensBefore, tokensAfter };
}

/** The index after the group starting at `start`: an assistant message takes its tool results along. */
function groupEnd(messages: readonly AgentMessage[], start: number): number {
  let end = start + 1;
  if ((messages[start] as { role: string }).role === 'assistant') {
    while (end < messages.length && (messages[end] as { role: string }).role === 'toolResult') end++;
  }
  return end;
}

function isProtected(
  messages: readonly AgentMessage[],
  start: number,
  end: number,
  newestUser: number,
  pinned: PinnedMessage | undefined,
): boolean {
  if (end === messages.length) return true;
  for (let index = start; index < end; index++) {
    const message = messages[index] as AgentMessage;
    if (index === newestUser || (message as { role: string }).role === 'system') return true;
    if (pinned?.(message, index) === true) return true;
  }
  return false;
}
