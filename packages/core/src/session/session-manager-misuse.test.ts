import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentError } from '../errors/agent-error.js';
import type { Provider } from '../provider/provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { MemorySessionStore } from './memory-session-store.js';
import { SessionManager, type SessionManagerOptions } from './session-manager.js';

const provider: Provider = {
  name: 'scripted',
  async *stream() {
    yield {
      type: 'done',
      message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }], stopReason: 'end_turn' },
    };
  },
};

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return AgentError.isInstance(error) ? error.code : `not an AgentError: ${String(error)}`;
  }
  return undefined;
}

describe('SessionManager misuse', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a manager without its agent options factory is refused at construction, naming the option', () => {
    const store = new MemorySessionStore();
    const make = (options: unknown) => () => new SessionManager(options as SessionManagerOptions);
    expect(codeOf(make({ store }))).toBe('invalid_config');
    expect(make({ store })).toThrow(/agentOptions: a function that returns each session's agent options/);
    // The option's old name gets a hint to rename it.
    expect(make({ store, agent: () => ({ provider, model: 'm' }) })).toThrow(/rename it to agentOptions/);
    expect(make({ agentOptions: () => ({ provider, model: 'm' }) })).toThrow(/SessionManager needs a store/);
    expect(make(undefined)).toThrow(/SessionManager needs a store/);
  });

  it('get with an id that is not a string says the id must be a string', async () => {
    const manager = new SessionManager({
      store: new MemorySessionStore(),
      agentOptions: () => ({ provider, model: 'm', orchestrator: stepOrchestrator }),
    });
    await expect(manager.get(123 as unknown as string)).rejects.toThrow(
      /A session id must be a string, got number 123/,
    );
    await expect(manager.get({} as unknown as string)).rejects.toMatchObject({ code: 'invalid_session_id' });
  });

  it('create without an id works where crypto.randomUUID is missing (a browser page on a plain http origin)', async () => {
    const { getRandomValues } = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: getRandomValues.bind(globalThis.crypto) });
    const manager = new SessionManager({
      store: new MemorySessionStore(),
      agentOptions: () => ({ provider, model: 'm', orchestrator: stepOrchestrator }),
    });
    const first = await manager.create();
    const second = await manager.create();
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.id).not.toBe(first.id);
  });
});
