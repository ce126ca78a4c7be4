import { ContextWindow, type ContextWindowOptions, modelSummarizer, type Provider } from '@agent-core/core';

// The budget of a model whose window nobody knows: it never compacts for the budget, but it
// honours a compaction asked for with /compact and compacts once when the server answers
// "context overflow", after which it keeps the budget that refusal taught.
const unboundedTokens = 1_000_000_000;

/** Budgets providers taught by refusing a request as too long, by provider name and model, for every session of a process. */
export type LearnedBudgets = Map<string, number>;

/** What a session's window is made with. */
export interface SessionWindowOptions extends Omit<ContextWindowOptions, 'budgetTokens' | 'summarize'> {
  /** Tokens of context for models whose provider does not know their window (`context_window`). */
  configuredTokens: number | undefined;
  /** Shared with the other sessions of the process: what one session's refusal taught, every session knows. */
  learned: LearnedBudgets;
  /** The session's provider and model as it starts; a compaction's summary is written by the ones in use then. */
  provider: Provider;
  model: string;
}

/**
 * A session's context window: the provider's figure for the model when it
 * knows one, else the configured `context_window`, lowered by what a
 * provider taught any session of the process by refusing a request; it
 * follows the model as it is switched, and the dropped part is summarised by
 * the model in use. `compactBeforeNextCall` is `/compact`: the next model
 * call compacts down to that many tokens, once.
 */
export class SessionWindow extends ContextWindow {
  readonly #configured: number | undefined;
  readonly #learned: LearnedBudgets;
  readonly #current: { provider: Provider; model: string };
  #once: number | undefined;

  constructor(options: SessionWindowOptions) {
    const { configuredTokens, learned, provider, model, ...rest } = options;
    // The loop asks for the budget (below) with the provider and model of the call it is about to make.
    const current = { provider, model };
    super({
      ...rest,
      summarize: (messages, signal) => modelSummarizer(current.provider, current.model)(messages, signal),
    });
    this.#current = current;
    this.#configured = configuredTokens;
    this.#learned = learned;
  }

  /** Compacts what is sent down to about `tokens` before the next model call (the full history stays). */
  compactBeforeNextCall(tokens: number): void {
    this.#once = Math.max(1, Math.floor(tokens));
  }

  /** True while a `/compact` waits for the next model call. */
  get compactionRequested(): boolean {
    return this.#once !== undefined;
  }

  /**
   * The size of the window for the editor's usage display: the model's own
   * window, or the configured one, or what a refusal taught when lower;
   * undefined when none of them is known.
   */
  sizeFor(provider: Provider, model: string): number | undefined {
    const size = provider.modelInfo?.(model)?.contextWindow ?? this.#configured;
    const learned = this.#learned.get(learnedKey(provider.name, model));
    if (learned === undefined) return size;
    return size === undefined || learned < size ? learned : size;
  }

  override budgetFor(provider: Provider, model: string, maxOutputTokens: number | undefined): number {
    this.#current.provider = provider;
    this.#current.model = model;
    let budget =
      provider.modelInfo?.(model) === undefined
        ? (this.#configured ?? unboundedTokens)
        : super.budgetFor(provider, model, maxOutputTokens);
    const learned = this.#learned.get(learnedKey(provider.name, model));
    if (learned !== undefined && learned < budget) budget = learned;
    return this.#once !== undefined && this.#once < budget ? this.#once : budget;
  }

  override learnBudget(provider: string, model: string, tokens: number): number {
    const key = learnedKey(provider, model);
    const known = this.#learned.get(key);
    const value = Math.max(1, Math.floor(tokens));
    const lowest = known === undefined ? value : Math.min(known, value);
    this.#learned.set(key, lowest);
    super.learnBudget(provider, model, lowest);
    return lowest;
  }

  override learnedBudget(provider: string, model: string): number | undefined {
    return this.#learned.get(learnedKey(provider, model));
  }

  // A compaction was recorded: a /compact asked for has been done.
  override reset(...args: Parameters<ContextWindow['reset']>): void {
    this.#once = undefined;
    super.reset(...args);
  }
}

function learnedKey(provider: string, model: string): string {
  return `${provider}\u0000${model}`;
}
