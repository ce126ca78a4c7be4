import type { ModelInfo } from '@agent-core/core';

function info(
  contextWindow: number,
  maxOutputTokens: number,
  input: number,
  output: number,
  cacheRead?: number,
): ModelInfo {
  return {
    contextWindow,
    maxOutputTokens,
    pricing: cacheRead === undefined ? { input, output } : { input, output, cacheRead },
  };
}

// Prices in US dollars per million tokens (input, output, cached input), from OpenAI's price list.
// A model matches the longest key equal to its name or followed by `-` (dated snapshots, `-latest`).
const models: Record<string, ModelInfo> = {
  'gpt-5.2': info(400_000, 128_000, 1.75, 14, 0.175),
  'gpt-5.2-pro': info(400_000, 128_000, 21, 168),
  'gpt-5.2-chat': info(128_000, 16_384, 1.75, 14, 0.175),
  'gpt-5.2-codex': info(400_000, 128_000, 1.75, 14, 0.175),
  'gpt-5.1': info(400_000, 128_000, 1.25, 10, 0.125),
  'gpt-5.1-chat': info(128_000, 16_384, 1.25, 10, 0.125),
  'gpt-5.1-codex': info(400_000, 128_000, 1.25, 10, 0.125),
  'gpt-5.1-codex-max': info(400_000, 128_000, 1.25, 10, 0.125),
  'gpt-5.1-codex-mini': info(400_000, 128_000, 0.25, 2, 0.025),
  'gpt-5': info(400_000, 128_000, 1.25, 10, 0.125),
  'gpt-5-chat': info(128_000, 16_384, 1.25, 10, 0.125),
  'gpt-5-codex': info(400_000, 128_000, 1.25, 10, 0.125),
  'gpt-5-mini': info(400_000, 128_000, 0.25, 2, 0.025),
  'gpt-5-nano': info(400_000, 128_000, 0.05, 0.4, 0.005),
  'gpt-5-pro': info(400_000, 272_000, 15, 120),
  'gpt-4.1': info(1_047_576, 32_768, 2, 8, 0.5),
  'gpt-4.1-mini': info(1_047_576, 32_768, 0.4, 1.6, 0.1),
  'gpt-4.1-nano': info(1_047_576, 32_768, 0.1, 0.4, 0.025),
  'gpt-4o': info(128_000, 16_384, 2.5, 10, 1.25),
  'gpt-4o-mini': info(128_000, 16_384, 0.15, 0.6, 0.075),
  'chatgpt-4o': info(128_000, 16_384, 5, 15),
  'gpt-4-turbo': info(128_000, 4_096, 10, 30),
  'gpt-4': info(8_192, 8_192, 30, 60),
  'gpt-3.5-turbo': info(16_385, 4_096, 0.5, 1.5),
  o1: info(200_000, 100_000, 15, 60, 7.5),
  'o1-mini': info(128_000, 65_536, 1.1, 4.4, 0.55),
  'o1-pro': info(200_000, 100_000, 150, 600),
  o3: info(200_000, 100_000, 2, 8, 0.5),
  'o3-mini': info(200_000, 100_000, 1.1, 4.4, 0.55),
  'o3-pro': info(200_000, 100_000, 20, 80),
  'o4-mini': info(200_000, 100_000, 1.1, 4.4, 0.275),
  'codex-mini': info(200_000, 100_000, 1.5, 6, 0.375),
};

/**
 * Context window, output cap and prices of an OpenAI model, matched by name
 * prefix (`gpt-4o-2024-08-06` is `gpt-4o`; an `openai/` prefix, as OpenRouter
 * writes it, is ignored). Undefined for models it does not know.
 */
export function openaiModelInfo(model: string): ModelInfo | undefined {
  const name = model.startsWith('openai/') ? model.slice('openai/'.length) : model;
  let best: string | undefined;
  for (const key of Object.keys(models)) {
    if (name !== key && !name.startsWith(`${key}-`)) continue;
    if (best === undefined || key.length > best.length) best = key;
  }
  if (best === undefined) return undefined;
  const found = models[best]!;
  return { ...found, ...(found.pricing === undefined ? {} : { pricing: { ...found.pricing } }) };
}

/** True for models that reason before answering (o-series and gpt-5, except the gpt-5 chat models). */
export function isReasoningModel(model: string): boolean {
  const name = model.startsWith('openai/') ? model.slice('openai/'.length) : model;
  if (/^gpt-5(\.\d+)?-chat/.test(name)) return false;
  return /^(o\d|gpt-5|codex-mini)/.test(name);
}
