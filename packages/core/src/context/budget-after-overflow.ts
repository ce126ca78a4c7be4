import type { AssistantMessage } from '../messages/messages.js';
import type { ProviderError } from '../provider/provider-error.js';
import type { WindowState } from './context-window.js';

/** What is known when a provider refuses a request as longer than its context window. */
export interface OverflowFacts {
  error: ProviderError;
  /** The refused request's size in the window's own measure (its counter, or `countTokens`). */
  measured: number;
  /** The window's measure per token of its counter: 1, or more or less with exact counts. */
  scale: number;
  /** The output tokens the agent reserves on each call (`maxOutputTokens`), when set. */
  maxOutputTokens: number | undefined;
  /** The window's view of what was sent, and the tokens of the system prompt and tools. */
  view: WindowState;
  overhead: number;
  /** Provider name and model of the refused request. */
  provider: string;
  model: string;
}

/**
 * The budget a refusal teaches, in the window's own measure. When the refusal
 * names the context limit, it is the limit less the output the request reserved,
 * scaled by how the provider and the window each counted the refused request
 * (so a window whose counter undercounts still compacts in time). Otherwise it is
 * the largest request the provider accepted: the one its latest answer in the
 * window's view replied to. In any case less than the refused request.
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
  const accepted = acceptedRequest(facts);
  return accepted === undefined ? refused : Math.min(accepted, refused);
}

/**
 * The window's measure of the request that the provider's latest answer in the
 * view replied to: everything sent before that answer. The history only grows
 * between compactions, so it is the largest accepted since the last one.
 */
function acceptedRequest(facts: OverflowFacts): number | undefined {
  const { view, provider, model } = facts;
  for (let position = view.view.length - 1; position > 0; position--) {
    const message = view.view[position] as AssistantMessage;
    if (message.role !== 'assistant' || message.provider !== provider) continue;
    if (message.model !== undefined && message.model !== model) continue;
    let tokens = facts.overhead;
    for (let before = 0; before < position; before++) tokens += view.counts[before] ?? 0;
    return tokens * facts.scale;
  }
  return undefined;
}
