import type { ImageBlock, TextBlock, UserMessage } from './messages.js';

/**
 * Recorded in the history when the context window compacts it: the history
 * keeps every message, and this record says what is sent from then on. The
 * model gets `content` as a user message first, then the messages at
 * `keptBefore`, then every message from `firstKept` on (older compaction
 * records skipped). Plain JSON, so a stored session resumes from it.
 */
export interface CompactionMessage {
  role: 'compaction';
  /** What stands in for the dropped messages: a marker sentence or a summary. */
  content: string | (TextBlock | ImageBlock)[];
  /** History indexes of messages before `firstKept` that are still sent (pinned, system-level, the newest user message). */
  keptBefore: number[];
  /** History index from which every message is sent. */
  firstKept: number;
  /** Messages of the history not sent any more, counting earlier compactions. */
  droppedMessages: number;
  tokensBefore: number;
  tokensAfter: number;
  /** True when `content` came from the `summarize` hook. */
  summarized: boolean;
}

declare module '../messages/messages.js' {
  interface CustomAgentMessages {
    compaction: CompactionMessage;
  }
}

/** True for the record a compaction leaves in the history. */
export function isCompactionMessage(message: unknown): message is CompactionMessage {
  return (message as { role?: unknown } | undefined)?.role === 'compaction';
}

/** The user message a compaction record is sent as. */
export function compactionToMessage(message: CompactionMessage): UserMessage {
  return { role: 'user', content: message.content };
}
