import type { AgentMessage, AssistantMessage } from '../messages/messages.js';
import type { ProviderError } from '../provider/provider-error.js';

/** What is known when a provider refuses a request as longer than its context window. */
export interface OverflowFacts {
  error: ProviderError;
  /** The refused request's size in the window's own measure (its counter, or `countTokens`). */
  measured: number;
  /** The output tokens the agent reserves on each call (`maxOutputTokens`), when set. */
  maxOutputTokens: number | undefined;
  /** The agent's history: its answers' usage says how large an accepted request was. */
  history: readonly AgentMessage[];
  /** Provider name and model of the refused request. */
  provider: string;
  model: string;
}

/**
 * The budget a refusal teaches, in the window's own measure. When the refusal
 * names the context limit, it is the limit less the output the request reserves,
 * scaled by how the provider and the window each counted the refused request
 * (so a window whose counter undercounts still compacts in time). Otherwise it is
 * the largest prompt the provider accepted from this model before, and in any case
 * less than the refused request.
 */
export function budgetAfterOverflow(facts: OverflowFacts): number {
  const { error, measured } = facts;
  const limit = error.contextLimit;
  if (limit !== undefined) {
    const reserved = error.reservedOutputTokens ?? facts.maxOutputTokens ?? 0;
    const room = limit > reserved ? limit - reserved : limit;
    const counted = error.promptTokens;
    return counted !== undefined && measured > 0 ? (room * measured) / counted : room;
  }
  const refused = Math.max(1, Math.ceil(measured) - 1);
  const accepted = largestAcceptedPrompt(facts.history, facts.provider, facts.model);
  return accepted === undefined ? refused : Math.min(accepted, refused);
}

/**
 * The largest prompt an answer of this provider and model reports in its usage:
 * uncached input, cache reads and cache writes together. Read only after a refusal.
 */
function largestAcceptedPrompt(
  history: readonly AgentMessage[],
  provider: string,
  model: string,
): number | undefined {
  let largest: number | undefined;
  for (const message of history) {
    if ((message as { role?: unknown }).role !== 'assistant') continue;
    const answer = message as AssistantMessage;
    const usage = answer.usage;
    if (usage === undefined || answer.provider !== provider || answer.model !== model) continue;
    const prompt = (usage.input || 0) + (usage.cacheRead || 0) + (usage.cacheWrite || 0);
    if (prompt > 0 && (largest === undefined || prompt > largest)) largest = prompt;
  }
  return largest;
}
