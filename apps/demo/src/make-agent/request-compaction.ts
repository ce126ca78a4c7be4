import type { Agent } from '@agent-core/core';
import { SessionWindow } from './session-window.js';

// What a compaction keeps besides the messages (the system prompt and tools) sets a floor.
const overheadTokens = 4000;

/**
 * `/compact`, in the REPL and in an editor: asks the session's window to
 * compact what is sent before the next model call, down to about half of it
 * (never below the latest exchange). The full history stays stored. Returns
 * what to tell the person.
 */
export function requestCompaction(agent: Agent): string {
  const window = agent.options.contextWindow;
  if (!(window instanceof SessionWindow))
    return 'nothing to compact: this session runs without a context window (--no-compact)';
  const { view, counts, total } = window.sync(agent.messages);
  const lastPrompt = view.findLastIndex((message) => (message as { role: string }).role === 'user');
  const kept = counts.slice(Math.max(0, lastPrompt)).reduce((sum, count) => sum + count, 0);
  const budget = Math.max(Math.ceil(total / 2), kept + overheadTokens);
  if (view.length < 4 || budget >= total)
    return 'nothing to compact: the history is short, or the latest exchange is most of it';
  window.compactBeforeNextCall(budget);
  return `the history sent (about ${total} tokens) is compacted to about ${budget} before the next model call; the full history stays stored`;
}
