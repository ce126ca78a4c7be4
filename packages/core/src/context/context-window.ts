import { ConfigError } from '../errors/config-error.js';
import type { AgentMessage, Message, UserMessage } from '../messages/messages.js';
import { isModelMessage } from '../messages/messages.js';
import type { ModelRequest, Provider } from '../provider/provider.js';
import type { PinnedMessage } from './compact-messages.js';
import {
  type CompactionMessage,
  compactionToMessage,
  isCompactionMessage,
} from '../messages/compaction-message.js';
import { estimateTextTokens, estimateTokens, type TokenCounter } from './token-counter.js';

/** Writes a summary of messages a compaction drops; what it returns replaces them. */
export type Summarize = (
  messages: readonly AgentMessage[],
  signal: AbortSignal,
) => Promise<string | UserMessage>;

/** Options of a `ContextWindow` (also accepted as `contextWindow` on the Agent). */
export interface ContextWindowOptions {
  /**
   * Tokens a request may take (system prompt, tools and messages). Default:
   * the provider's `modelInfo(model).contextWindow` less the output reserve
   * (the agent's `maxOutputTokens`, else the model's `maxOutputTokens`).
   */
  budgetTokens?: number;
  /** Compacts when a request would take more than this fraction of the budget. Default 1. */
  threshold?: number;
  /** Fraction of the budget a compaction brings the request down to. Default 0.8. */
  targetRatio?: number;
  /** Counts one message's tokens. Default `estimateTokens` (ceil(chars / 4)). */
  counter?: TokenCounter;
  /** Ask the provider's `countTokens` for the request's total before each call (one more request per call). */
  exactCounts?: boolean;
  /** Replaces the dropped messages with a summary instead of a marker sentence (see `modelSummarizer`). */
  summarize?: Summarize;
  /** Messages never dropped; `index` is the message's index in the agent's history. */
  pinned?: PinnedMessage;
}

/** What a ContextWindow keeps for one history, so each call counts only the messages added since the last. */
export interface WindowState {
  /** History entries taken into account so far, and the last of them (to notice a reset). */
  seen: number;
  last: AgentMessage | undefined;
  /** What is sent, before `convertToLlm`: the marker first (as a user message) when compacted. */
  view: AgentMessage[];
  /** History index of each view entry (the compaction record's own index for the marker). */
  indexes: number[];
  counts: number[];
  /** The view after the default conversion (app-defined kinds left out). */
  sent: Message[];
  total: number;
  marker: CompactionMessage | undefined;
  /** View entries before the part that is a contiguous run of the history: the marker and its `keptBefore`. */
  headLength: number;
}

function learnedKey(provider: string, model: string): string {
  return `${provider}\u0000${model}`;
}

function checkRatio(name: string, value: number | undefined): void {
  if (value !== undefined && !(value > 0 && value <= 1)) {
    throw new ConfigError(`contextWindow.${name} must be a number above 0 and at most 1, got ${value}.`);
  }
}

/**
 * A token budget for what an agent sends: before each model call the history
 * is counted (incrementally: each message once) and, when over the budget,
 * compacted to `targetRatio` of it by dropping the oldest whole groups. The
 * history keeps every message plus a compaction record (`CompactionMessage`).
 *
 * @example
 * const agent = new Agent({ provider, model, contextWindow: { budgetTokens: 100_000 } });
 */
export class ContextWindow {
  readonly budgetTokens: number | undefined;
  readonly threshold: number;
  readonly targetRatio: number;
  readonly counter: TokenCounter;
  readonly exactCounts: boolean;
  readonly summarize: Summarize | undefined;
  readonly pinned: PinnedMessage | undefined;
  readonly #states = new WeakMap<readonly AgentMessage[], WindowState>();
  readonly #counts = new WeakMap<object, number>();
  #budgetKey: unknown[] | undefined;
  #budget = 0;
  /** Budgets learned from providers' refusals, by provider name and model; made at the first one. */
  #learned: Map<string, number> | undefined;
  #system: string | undefined;
  #tools: unknown;
  #overhead = 0;

  constructor(options: ContextWindowOptions = {}) {
    const budget = options.budgetTokens;
    if (budget !== undefined && !(Number.isInteger(budget) && budget > 0)) {
      throw new ConfigError(`contextWindow.budgetTokens must be a positive integer, got ${budget}.`);
    }
    checkRatio('threshold', options.threshold);
    checkRatio('targetRatio', options.targetRatio);
    this.budgetTokens = budget;
    this.threshold = options.threshold ?? 1;
    this.targetRatio = Math.min(options.targetRatio ?? 0.8, this.threshold);
    this.counter = options.counter ?? estimateTokens;
    this.exactCounts = options.exactCounts ?? false;
    this.summarize = options.summarize;
    this.pinned = options.pinned;
  }

  /** The instance itself, or a new one from options. */
  static from(value: ContextWindow | ContextWindowOptions): ContextWindow {
    return value instanceof ContextWindow ? value : new ContextWindow(value);
  }

  /**
   * The token budget for a model: `budgetTokens` or the provider's model info, or the budget
   * learned from a refusal when that is lower. Throws `ConfigError` when neither knows it.
   */
  budgetFor(provider: Provider, model: string, maxOutputTokens: number | undefined): number {
    const budget = this.#configuredBudget(provider, model, maxOutputTokens);
    // Nothing learned (the common case): one comparison.
    if (this.#learned === undefined) return budget;
    const learned = this.#learned.get(learnedKey(provider.name, model));
    return learned !== undefined && learned < budget ? learned : budget;
  }

  /**
   * Lowers the budget for a provider's model, by provider name, for the rest of this window's
   * life: a provider refused a request as too long, so later requests are compacted before
   * they are sent. Never raises it. Returns the learned budget now in force.
   */
  learnBudget(provider: string, model: string, tokens: number): number {
    const key = learnedKey(provider, model);
    const learned = (this.#learned ??= new Map());
    const value = Math.max(1, Math.floor(tokens));
    const known = learned.get(key);
    const lowest = known === undefined ? value : Math.min(known, value);
    learned.set(key, lowest);
    return lowest;
  }

  /** The budget learned from refusals for a provider's model (by name), if any. */
  learnedBudget(provider: string, model: string): number | undefined {
    return this.#learned?.get(learnedKey(provider, model));
  }

  #configuredBudget(provider: Provider, model: string, maxOutputTokens: number | undefined): number {
    if (this.budgetTokens !== undefined) return this.budgetTokens;
    const key = this.#budgetKey;
    if (key !== undefined && key[0] === provider && key[1] === model && key[2] === maxOutputTokens) {
      return this.#budget;
    }
    const info = provider.modelInfo?.(model);
    if (info === undefined) {
      throw new ConfigError(
        `contextWindow needs budgetTokens: provider '${provider.name}' does not know the context window of model '${model}'.`,
      );
    }
    const budget = info.contextWindow - (maxOutputTokens ?? info.maxOutputTokens);
    if (!(budget > 0)) {
      throw new ConfigError(
        `contextWindow: model '${model}' has a context window of ${info.contextWindow} tokens, which leaves nothing once ${maxOutputTokens ?? info.maxOutputTokens} are reserved for output. Lower maxOutputTokens or set budgetTokens.`,
      );
    }
    this.#budgetKey = [provider, model, maxOutputTokens];
    this.#budget = budget;
    return budget;
  }

  /** Tokens of one message, counted once per message object. */
  count(message: AgentMessage): number {
    let tokens = this.#counts.get(message);
    if (tokens === undefined) {
      tokens = this.counter(message);
      this.#counts.set(message, tokens);
    }
    return tokens;
  }

  /** Tokens of the request's system prompt and tools, recounted only when they change. */
  overheadTokens(request: ModelRequest): number {
    if (request.system !== this.#system || request.tools !== this.#tools) {
      this.#system = request.system;
      this.#tools = request.tools;
      const system = request.system ?? '';
      const tools = request.tools === undefined ? '' : JSON.stringify(request.tools);
      this.#overhead =
        this.counter === estimateTokens
          ? estimateTextTokens(system) + estimateTextTokens(tools)
          : this.counter({ role: 'user', content: system }) + this.counter({ role: 'user', content: tools });
    }
    return this.#overhead;
  }

  /**
   * Brings the window's view of `history` up to date and returns it: only the
   * messages appended since the last call are counted. A history that shrank
   * or was replaced is read again, from its last compaction record.
   */
  sync(history: readonly AgentMessage[]): WindowState {
    let state = this.#states.get(history);
    const length = history.length;
    if (
      state === undefined ||
      length < state.seen ||
      (state.seen > 0 && history[state.seen - 1] !== state.last)
    ) {
      state = this.#rebuild(history);
      this.#states.set(history, state);
    } else {
      for (let index = state.seen; index < length; index++) {
        const message = history[index] as AgentMessage;
        if (isCompactionMessage(message)) {
          // A record appended by someone else (another window, a restored session): read again from the last one.
          state = this.#rebuild(history);
          this.#states.set(history, state);
          break;
        }
        this.#add(state, message, index);
      }
    }
    state.seen = length;
    state.last = history[length - 1];
    return state;
  }

  /** Replaces the view after a compaction recorded at `history[markerIndex]`. */
  reset(state: WindowState, history: readonly AgentMessage[], markerIndex: number): void {
    this.#startFrom(state, history, markerIndex);
    state.seen = history.length;
    state.last = history[history.length - 1];
  }

  #rebuild(history: readonly AgentMessage[]): WindowState {
    const state: WindowState = {
      seen: 0,
      last: undefined,
      view: [],
      indexes: [],
      counts: [],
      sent: [],
      total: 0,
      marker: undefined,
      headLength: 0,
    };
    let markerIndex = -1;
    for (let index = history.length - 1; index >= 0; index--) {
      if (isCompactionMessage(history[index])) {
        markerIndex = index;
        break;
      }
    }
    if (markerIndex >= 0) this.#startFrom(state, history, markerIndex);
    else
      for (let index = 0; index < history.length; index++)
        this.#add(state, history[index] as AgentMessage, index);
    return state;
  }

  /** The view from the compaction record at `markerIndex`: marker, kept messages, then the rest of the history. */
  #startFrom(state: WindowState, history: readonly AgentMessage[], markerIndex: number): void {
    const marker = history[markerIndex] as CompactionMessage;
    state.view = [];
    state.indexes = [];
    state.counts = [];
    state.sent = [];
    state.total = 0;
    const valid =
      Number.isInteger(marker.firstKept) &&
      marker.firstKept >= 0 &&
      Array.isArray(marker.keptBefore) &&
      marker.keptBefore.every((index) => Number.isInteger(index) && index >= 0 && index < marker.firstKept);
    // A record that does not describe this history is ignored: sending everything beats losing messages.
    if (!valid) {
      state.marker = undefined;
      state.headLength = 0;
      for (let index = 0; index < history.length; index++) {
        const message = history[index] as AgentMessage;
        if (!isCompactionMessage(message)) this.#add(state, message, index);
      }
      return;
    }
    state.marker = marker;
    this.#add(state, compactionToMessage(marker), markerIndex);
    for (const index of marker.keptBefore) this.#add(state, history[index] as AgentMessage, index);
    state.headLength = state.view.length;
    for (let index = marker.firstKept; index < history.length; index++) {
      const message = history[index] as AgentMessage;
      if (!isCompactionMessage(message)) this.#add(state, message, index);
    }
  }

  #add(state: WindowState, message: AgentMessage, index: number): void {
    const tokens = this.count(message);
    state.view.push(message);
    state.indexes.push(index);
    state.counts.push(tokens);
    state.total += tokens;
    if (isModelMessage(message)) state.sent.push(message);
  }
}
