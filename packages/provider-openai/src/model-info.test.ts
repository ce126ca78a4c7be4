import { describe, expect, it } from 'vitest';
import { isReasoningModel, openaiModelInfo } from './model-info.js';
import { openai } from './openai.js';

describe('openaiModelInfo', () => {
  it('matches dated snapshots and aliases by prefix', () => {
    expect(openaiModelInfo('gpt-4o-2024-08-06')).toEqual({
      contextWindow: 128_000,
      maxOutputTokens: 16_384,
      pricing: { input: 2.5, output: 10, cacheRead: 1.25 },
    });
    expect(openaiModelInfo('gpt-4o-mini-2024-07-18')?.pricing?.input).toBe(0.15);
    expect(openaiModelInfo('gpt-5-mini-2025-08-07')?.pricing).toEqual({
      input: 0.25,
      output: 2,
      cacheRead: 0.025,
    });
    expect(openaiModelInfo('gpt-4.1')?.contextWindow).toBe(1_047_576);
    expect(openaiModelInfo('o3-mini')?.pricing?.input).toBe(1.1);
    expect(openaiModelInfo('o3')?.pricing?.input).toBe(2);
    expect(openaiModelInfo('gpt-5.1-codex-mini')?.pricing?.input).toBe(0.25);
  });

  it('ignores an openai/ prefix (OpenRouter)', () => {
    expect(openaiModelInfo('openai/gpt-4.1-mini')?.pricing?.output).toBe(1.6);
  });

  it('is undefined for unknown models and for names that only share a prefix', () => {
    expect(openaiModelInfo('llama3.1:8b')).toBeUndefined();
    expect(openaiModelInfo('gpt-5.9')).toBeUndefined();
    expect(openaiModelInfo('o3x')).toBeUndefined();
  });

  it('hands out copies', () => {
    const info = openaiModelInfo('gpt-4o')!;
    info.pricing!.input = 999;
    expect(openaiModelInfo('gpt-4o')?.pricing?.input).toBe(2.5);
  });

  it('is the provider modelInfo', () => {
    expect(openai().modelInfo('gpt-4.1-nano')?.pricing?.input).toBe(0.1);
  });

  it('knows which models reason', () => {
    expect(isReasoningModel('o4-mini')).toBe(true);
    expect(isReasoningModel('gpt-5')).toBe(true);
    expect(isReasoningModel('gpt-5-chat-latest')).toBe(false);
    expect(isReasoningModel('gpt-4o')).toBe(false);
  });
});
