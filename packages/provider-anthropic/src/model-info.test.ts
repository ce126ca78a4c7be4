import { describe, expect, it } from 'vitest';
import { anthropicModelInfo } from './model-info.js';

describe('anthropicModelInfo', () => {
  it('knows current families by alias and dated snapshot', () => {
    expect(anthropicModelInfo('claude-sonnet-4-5-20250929')).toEqual({
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    });
    expect(anthropicModelInfo('claude-opus-4-6')?.contextWindow).toBe(1_000_000);
    expect(anthropicModelInfo('claude-opus-4-5-20251101')?.pricing?.input).toBe(5);
    expect(anthropicModelInfo('claude-opus-4-1-20250805')?.pricing?.input).toBe(15);
    expect(anthropicModelInfo('claude-3-5-haiku-latest')?.maxOutputTokens).toBe(8_192);
    expect(anthropicModelInfo('claude-haiku-4-5')?.pricing?.output).toBe(5);
  });

  it('takes the most specific family: opus-4-5 is not opus-4, sonnet-5-5 is not sonnet-5', () => {
    expect(anthropicModelInfo('claude-opus-4-20250514')?.pricing?.input).toBe(15);
    expect(anthropicModelInfo('claude-opus-4-5')?.pricing?.input).toBe(5);
    expect(anthropicModelInfo('claude-opus-5-5')?.pricing?.input).toBe(4);
    expect(anthropicModelInfo('claude-opus-5')?.pricing?.input).toBe(5);
  });

  it('accepts Bedrock and Vertex spellings', () => {
    expect(anthropicModelInfo('anthropic.claude-opus-4-6-v1:0')?.maxOutputTokens).toBe(128_000);
    expect(anthropicModelInfo('claude-sonnet-4-5@20250929')?.pricing?.input).toBe(3);
  });

  it('is undefined for unknown models and unknown versions of known families', () => {
    expect(anthropicModelInfo('gpt-4o')).toBeUndefined();
    expect(anthropicModelInfo('claude-opus-4-9')).toBeUndefined();
    expect(anthropicModelInfo('claude')).toBeUndefined();
  });

  it('gives limits without a price where the price is tiered', () => {
    const info = anthropicModelInfo('claude-haiku-5-5');
    expect(info?.contextWindow).toBe(1_000_000);
    expect(info?.pricing).toBeUndefined();
  });
});
