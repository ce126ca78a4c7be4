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

  it('create builds the agent before it stores anything: a throwing factory leaves no session, and a retry with the id works', async () => {
    const store = new MemorySessionStore();
    let failures = 2;
    const factoryCalls: string[] = [];
    const manager = new SessionManager({
      store,
      agentOptions: async ({ id }) => {
        factoryCalls.push(id);
        if (failures-- === 2) throw new Error('the MCP server did not start');
        // The second attempt returns options the Agent refuses: no provider.
        if (failures === 0) return { model: 'm' } as never;
        return { provider, model: 'm', orchestrator: stepOrchestrator };
      },
    });
    await expect(manager.create({ id: 'retried', metadata: { title: 't' } })).rejects.toThrow(
      'the MCP server did not start',
    );
    expect((await store.list()).sessions).toEqual([]);
    await expect(store.load('retried')).rejects.toMatchObject({ code: 'session_not_found' });
    await expect(manager.get('retried')).rejects.toMatchObject({ code: 'session_not_found' });
    await expect(manager.create({ id: 'retried' })).rejects.toMatchObject({ code: 'invalid_config' });
    expect((await store.list()).sessions).toEqual([]);
    const session = await manager.create({ id: 'retried', metadata: { title: 't' } });
    expect(factoryCalls).toEqual(['retried', 'retried', 'retried']);
    expect(session.version).toBe(1);
    expect((await session.prompt('hello').result()).text).toBe('hi');
    expect((await store.list()).sessions.map((summary) => [summary.id, summary.title])).toEqual([
      ['retried', 't'],
    ]);
  });

  it('create with the id of a session open in this process is refused before the factory runs, and the open one stays', async () => {
    const store = new MemorySessionStore();
    let factoryCalls = 0;
    const manager = new SessionManager({
      store,
      agentOptions: () => {
        factoryCalls++;
        return { provider, model: 'm', orchestrator: stepOrchestrator };
      },
    });
    const [first, second] = await Promise.allSettled([
      manager.create({ id: 'twice' }),
      manager.create({ id: 'twice' }),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(second).toMatchObject({ status: 'rejected', reason: { code: 'session_conflict' } });
    expect(String((second as PromiseRejectedResult).reason)).toMatch(/already open in this process/);
    expect(factoryCalls).toBe(1);
    const open = (first as PromiseFulfilledResult<Awaited<ReturnType<typeof manager.create>>>).value;
    // The refused create did not drop the open session: get gives the same one, not a second agent.
    expect(await manager.get('twice')).toBe(open);
    // Another manager (process) finds the id stored: the store refuses it.
    const other = new SessionManager({ store, agentOptions: () => ({ provider, model: 'm' }) });
    await expect(other.create({ id: 'twice' })).rejects.toMatchObject({
      code: 'session_conflict',
      actualVersion: 1,
    });
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
