import type { ModelInfo } from '@agent-core/core';

interface ModelEntry {
  id: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** US dollars per million input and output tokens; undefined when the price is tiered or unpublished. */
  price?: { input: number; output: number };
}

const thousand = 1_000;
const million = 1_000_000;

// Published limits and list prices (US$ per million tokens) of the Claude API.
// Cache writes are priced at 1.25 x input (5-minute cache) and cache reads at
// 0.1 x input, as Anthropic's pricing page states for every model.
const models: readonly ModelEntry[] = [
  {
    id: 'claude-fable-5-1',
    contextWindow: million,
    maxOutputTokens: 128 * thousand,
    price: { input: 10, output: 50 },
  },
  {
    id: 'claude-fable-5',
    contextWindow: million,
    maxOutputTokens: 128 * thousand,
    price: { input: 10, output: 50 },
  },
  {
    id: 'claude-opus-5-5',
    contextWindow: million,
    maxOutputTokens: 128 * thousand,
    price: { input: 4, output: 20 },
  },
  {
    id: 'claude-opus-5',
    contextWindow: million,
    maxOutputTokens: 128 * thousand,
    price: { input: 5, output: 25 },
  },
  {
    id: 'claude-sonnet-5-5',
    contextWindow: million,
    maxOutputTokens: 128 * thousand,
    price: { input: 2, output: 10 },
  },
  {
    id: 'claude-sonnet-5',
    contextWindow: million,
    maxOutputTokens: 128 * thousand,
    price: { input: 2, output: 10 },
  },
  // Haiku 5.5 is priced in tiers ("from $0.10"), so no single price is given.
  { id: 'claude-haiku-5-5', contextWindow: million, maxOutputTokens: 128 * thousand },
  {
    id: 'claude-opus-4-8',
    contextWindow: million,
    maxOutputTokens: 128 * thousand,
    price: { input: 5, output: 25 },
  },
  {
    id: 'claude-opus-4-7',
    contextWindow: million,
    maxOutputTokens: 128 * thousand,
    price: { input: 5, output: 25 },
  },
  {
    id: 'claude-opus-4-6',
    contextWindow: million,
    maxOutputTokens: 128 * thousand,
    price: { input: 5, output: 25 },
  },
  {
    id: 'claude-sonnet-4-6',
    contextWindow: million,
    maxOutputTokens: 128 * thousand,
    price: { input: 3, output: 15 },
  },
  {
    id: 'claude-opus-4-5',
    contextWindow: 200 * thousand,
    maxOutputTokens: 64 * thousand,
    price: { input: 5, output: 25 },
  },
  {
    id: 'claude-sonnet-4-5',
    contextWindow: 200 * thousand,
    maxOutputTokens: 64 * thousand,
    price: { input: 3, output: 15 },
  },
  {
    id: 'claude-haiku-4-5',
    contextWindow: 200 * thousand,
    maxOutputTokens: 64 * thousand,
    price: { input: 1, output: 5 },
  },
  {
    id: 'claude-opus-4-1',
    contextWindow: 200 * thousand,
    maxOutputTokens: 32 * thousand,
    price: { input: 15, output: 75 },
  },
  {
    id: 'claude-opus-4',
    contextWindow: 200 * thousand,
    maxOutputTokens: 32 * thousand,
    price: { input: 15, output: 75 },
  },
  {
    id: 'claude-sonnet-4',
    contextWindow: 200 * thousand,
    maxOutputTokens: 64 * thousand,
    price: { input: 3, output: 15 },
  },
  {
    id: 'claude-3-7-sonnet',
    contextWindow: 200 * thousand,
    maxOutputTokens: 64 * thousand,
    price: { input: 3, output: 15 },
  },
  {
    id: 'claude-3-5-sonnet',
    contextWindow: 200 * thousand,
    maxOutputTokens: 8_192,
    price: { input: 3, output: 15 },
  },
  {
    id: 'claude-3-5-haiku',
    contextWindow: 200 * thousand,
    maxOutputTokens: 8_192,
    price: { input: 0.8, output: 4 },
  },
  {
    id: 'claude-3-opus',
    contextWindow: 200 * thousand,
    maxOutputTokens: 4_096,
    price: { input: 15, output: 75 },
  },
  {
    id: 'claude-3-haiku',
    contextWindow: 200 * thousand,
    maxOutputTokens: 4_096,
    price: { input: 0.25, output: 1.25 },
  },
];

// A model id matches an entry when it is the entry's id, or the id followed by
// a suffix that is not another version number: `claude-opus-4-5-20251101` is
// Opus 4.5, but `claude-opus-4-9` is not Opus 4.
function matches(model: string, id: string): boolean {
  if (!model.startsWith(id)) return false;
  const rest = model.slice(id.length);
  if (rest === '') return true;
  if (rest.startsWith('@')) return true;
  if (!rest.startsWith('-')) return false;
  const nextSegment = rest.slice(1).split(/[-@]/)[0] ?? '';
  return !/^\d{1,2}$/.test(nextSegment);
}

/**
 * Context window, output cap and list prices (US$ per million tokens) of a
 * Claude model, matched by its id or a dated snapshot of it
 * (`claude-sonnet-4-5-20250929`); undefined for models it does not know.
 */
export function anthropicModelInfo(model: string): ModelInfo | undefined {
  const normalized = model.toLowerCase().replace(/^anthropic\./, '');
  const entry = models.find((candidate) => matches(normalized, candidate.id));
  if (entry === undefined) return undefined;
  const info: ModelInfo = { contextWindow: entry.contextWindow, maxOutputTokens: entry.maxOutputTokens };
  if (entry.price !== undefined) {
    info.pricing = {
      input: entry.price.input,
      output: entry.price.output,
      cacheRead: round(entry.price.input * 0.1),
      cacheWrite: round(entry.price.input * 1.25),
    };
  }
  return info;
}

// Keeps prices such as 0.25 x 1.25 exact enough to compare in tests and logs.
function round(value: number): number {
  return Math.round(value * 1_000_000) / 1_000_000;
}
