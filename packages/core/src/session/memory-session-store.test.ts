import { describe, expect, it, test } from 'vitest';
import { newSessionState } from './session-state.js';
import { sessionStoreConformance } from '../testing/index.js';
import { MemorySessionStore } from './memory-session-store.js';

sessionStoreConformance(() => new MemorySessionStore(), { test, describe });

describe('summary titles', () => {
  it('cut a long prompt at a whole character, never half of an emoji', async () => {
    const store = new MemorySessionStore();
    const prompt = `${'a'.repeat(78)}🙂 and more`;
    await store.save(newSessionState({ id: 'emoji', messages: [{ role: 'user', content: prompt }] }), {
      expectedVersion: 0,
    });
    const title = (await store.list()).sessions[0]?.title as string;
    expect(title).toBe(`${'a'.repeat(78)}…`);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(title)).toBe(false);
  });
});
