import { getProvider, listProviders } from '@agent-core/core';
import { describe, expect, it } from 'vitest';

describe('registration', () => {
  it('registers the anthropic provider when the package is imported, without building a client', async () => {
    await import('./index.js');
    expect(listProviders()).toContain('anthropic');
    const provider = getProvider('anthropic', { apiKey: 'sk-ant-test' });
    expect(provider.name).toBe('anthropic');
    expect(provider.modelInfo?.('claude-sonnet-4-6')?.contextWindow).toBe(1_000_000);
  });

  it('keeps the first registration when imported twice', async () => {
    await import('./register.js');
    await import('./index.js');
    expect(listProviders().filter((name) => name === 'anthropic')).toHaveLength(1);
  });
});
