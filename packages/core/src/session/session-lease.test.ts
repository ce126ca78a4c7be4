import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SessionBusyError } from '../errors/session-busy-error.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import { historyProblems } from '../messages/history-problems.js';
import type { AssistantMessage, ModelRequest, Provider, ToolResultMessage } from '../index.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { defineTool } from '../tool/define-tool.js';
import { MemorySessionStore } from './memory-session-store.js';
import { SessionManager } from './session-manager.js';
import type { SessionLease, SessionStore } from './session-store.js';

/**
 * Processes over one store with leases, as a store several processes share
 * keeps them: a lease is held until released or until its holder dies.
 */
class Machines {
  readonly store = new MemorySessionStore();
  readonly holders = new Map<string, string>();
  readonly dead = new Set<string>();
  /** When set, `lease` waits for it first (to order a load against the end of a run). */
  leaseGate: Promise<void> | undefined;
  /** Who asked for a lease, in order. */
  readonly requests: string[] = [];

  /** The store as process `name` sees it. */
  storeOf(name: string): SessionStore {
    const store = this.store;
    return {
      load: (id) => store.load(id),
      save: (state, options) => store.save(state, options),
      list: (options) => store.list(options),
      delete: (id) => store.delete(id),
      append: (id, entries, options) => store.append(id, entries, options),
      read: (id, options) => store.read(id, options),
      lease: async (id): Promise<SessionLease> => {
        this.requests.push(name);
        await this.leaseGate;
        await store.load(id);
        const holder = this.holders.get(id);
        if (holder !== undefined && !this.dead.has(holder))
          throw new SessionBusyError(id, `process ${holder}`);
        this.holders.set(id, name);
        return {
          release: async () => {
            if (this.holders.get(id) === name) this.holders.delete(id);
          },
        };
      },
    };
  }
}

/** A stateless model: one call of `work` per result so far, up to two, then an answer. */
const provider: Provider & { requests: number } = {
  name: 'scripted',
  requests: 0,
  async *stream(request: ModelRequest) {
    provider.requests++;
    const count = request.messages.filter((message) => message.role === 'toolResult').length;
    const message: AssistantMessage =
      count < 2
        ? {
            role: 'assistant',
            content: [{ type: 'toolCall', id: `w${count + 1}`, name: 'work', input: { step: count + 1 } }],
            stopReason: 'tool_use',
          }
        : {
            role: 'assistant',
            content: [{ type: 'text', text: `done after ${count}` }],
            stopReason: 'end_turn',
          };
    yield { type: 'done', message };
  },
};

/** A tool whose second step waits for `finish` (a process in the middle of a slow call). */
function worker() {
  const ran: number[] = [];
  let finish: () => void = () => {};
  const slow = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const tool = defineTool({
    name: 'work',
    description: 'works',
    parameters: z.object({ step: z.number() }),
    execute: async ({ step }) => {
      ran.push(step);
      if (step === 2) await slow;
      return `step ${step} done`;
    },
  });
  return { tool, ran, finish: () => finish() };
}

function processOn(machines: Machines, name: string, tool: ReturnType<typeof worker>['tool']) {
  return new SessionManager({
    store: machines.storeOf(name),
    agentOptions: () => ({ provider, model: 'm', tools: [tool], orchestrator: stepOrchestrator }),
  });
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 1000 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 1));
  expect(condition()).toBe(true);
}

describe('a session another process is running', () => {
  it('is loaded as it is, never repaired; its prompt is refused and runs nothing; once that run ends it loads whole', async () => {
    const machines = new Machines();
    const work = worker();
    const first = await processOn(machines, 'a', work.tool).create({ id: 's' });
    const running = first.prompt('do the work');
    await waitFor(() => work.ran.length === 2);
    const before = await machines.store.read('s');
    const version = (await machines.store.load('s')).version;

    const other = worker();
    const seen = await processOn(machines, 'b', other.tool).get('s');
    const loadedDuringRun = await processOn(machines, 'd', other.tool).get('s');
    expect(seen.status).toBe('running');
    expect(await machines.store.read('s')).toEqual(before);
    expect((await machines.store.load('s')).version).toBe(version);
    const requests = provider.requests;
    const refused = await seen.prompt('me too').result();
    expect(refused.terminateReason).toBe('error');
    expect(refused.error).toBeInstanceOf(SessionBusyError);
    expect((refused.error as SessionBusyError).holder).toBe('process a');
    expect(provider.requests).toBe(requests);
    expect(other.ran).toEqual([]);
    expect(await machines.store.read('s')).toEqual(before);

    // Nor is it deleted under the process that runs it.
    await expect(processOn(machines, 'b', other.tool).remove('s')).rejects.toBeInstanceOf(SessionBusyError);
    expect(await machines.store.read('s')).toEqual(before);

    work.finish();
    expect((await running.result()).terminateReason).toBe('completed');
    expect(machines.holders.has('s')).toBe(false);
    // What a process loaded while the run went on is not the history to go on from, even with the lease free.
    const late = await loadedDuringRun.prompt('me too').result();
    expect(late.error).toBeInstanceOf(SessionConflictError);
    expect(late.error?.message).toContain('was running in another process when this one loaded it');
    expect(other.ran).toEqual([]);
    const after = await processOn(machines, 'c', other.tool).get('s');
    expect(after.status).toBe('idle');
    expect(historyProblems(after.messages)).toEqual([]);
    const results = after.messages.filter((message) => message.role === 'toolResult') as ToolResultMessage[];
    expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
      ['w1', false],
      ['w2', false],
    ]);
  });

  it('is repaired once its process is gone, under the lease, which is given back', async () => {
    const machines = new Machines();
    const work = worker();
    void (await processOn(machines, 'a', work.tool).create({ id: 's' })).prompt('do the work');
    await waitFor(() => work.ran.length === 2);
    machines.dead.add('a');

    const restored = await processOn(machines, 'b', worker().tool).get('s');
    expect(restored.status).toBe('interrupted');
    expect(String((restored.messages.at(-1) as ToolResultMessage).content)).toContain('outcome is unknown');
    expect(machines.holders.has('s')).toBe(false);
    const next = await restored.prompt('carry on').result();
    expect(next.terminateReason).toBe('completed');
    expect(historyProblems(next.messages)).toEqual([]);
  });

  it('that ends while another process loads it is read again under the lease, not repaired', async () => {
    const machines = new Machines();
    const work = worker();
    const running = (await processOn(machines, 'a', work.tool).create({ id: 's' })).prompt('do the work');
    await waitFor(() => work.ran.length === 2);
    let open: () => void = () => {};
    machines.leaseGate = new Promise((resolve) => {
      open = resolve;
    });
    // The load reads the session while it runs, then waits for the lease; the run ends meanwhile.
    const loading = processOn(machines, 'b', worker().tool).get('s');
    await waitFor(() => machines.requests.at(-1) === 'b');
    work.finish();
    await running.result();
    expect(machines.holders.has('s')).toBe(false);
    open();
    const loaded = await loading;
    expect(loaded.status).toBe('idle');
    const results = loaded.messages.filter((message) => message.role === 'toolResult') as ToolResultMessage[];
    expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
      ['w1', false],
      ['w2', false],
    ]);
    expect(historyProblems(loaded.messages)).toEqual([]);
  });
});

describe('one run at a time across processes', () => {
  it('a run holds the lease from its start to its end; a prompt elsewhere meanwhile is refused', async () => {
    const machines = new Machines();
    const work = worker();
    const a = processOn(machines, 'a', work.tool);
    const b = processOn(machines, 'b', worker().tool);
    const mine = await a.create({ id: 's' });
    const theirs = await b.get('s');
    const running = mine.prompt('do the work');
    await waitFor(() => work.ran.length === 2);
    expect(machines.holders.get('s')).toBe('a');

    const refused = await theirs.prompt('me too').result();
    expect(refused.error).toBeInstanceOf(SessionBusyError);
    work.finish();
    expect((await running.result()).terminateReason).toBe('completed');
    expect(machines.holders.has('s')).toBe(false);
    const log = await machines.store.read('s');
    expect(log.filter((record) => record.event.type === 'run_started')).toHaveLength(1);
  });

  it('a process that loaded before another ran a prompt is refused with SessionConflictError; loaded again it goes on', async () => {
    const machines = new Machines();
    const work = worker();
    work.finish();
    const a = processOn(machines, 'a', work.tool);
    const b = processOn(machines, 'b', work.tool);
    const mine = await a.create({ id: 's' });
    const stale = await b.get('s');
    expect((await mine.prompt('first').result()).terminateReason).toBe('completed');
    const length = (await machines.store.read('s')).length;

    const refused = await stale.prompt('second').result();
    expect(refused.terminateReason).toBe('error');
    expect(refused.error).toBeInstanceOf(SessionConflictError);
    expect(refused.error?.message).toContain('Load the session again');
    expect(await machines.store.read('s')).toHaveLength(length);
    expect(machines.holders.has('s')).toBe(false);

    b.close('s');
    const fresh = await b.get('s');
    const next = await fresh.prompt('second').result();
    expect(next.terminateReason).toBe('completed');
    expect(next.messages.filter((message) => message.role === 'user')).toHaveLength(2);
    expect(historyProblems(next.messages)).toEqual([]);
  });

  it('the lease is given back when the store fails at the end of the run', async () => {
    const machines = new Machines();
    const work = worker();
    work.finish();
    const failing = machines.storeOf('a');
    let appends = 0;
    const store: SessionStore = {
      ...failing,
      append: (id, entries, options) =>
        ++appends > 3 ? Promise.reject(new Error('disk full')) : failing.append(id, entries, options),
    };
    const manager = new SessionManager({
      store,
      agentOptions: () => ({ provider, model: 'm', tools: [work.tool], orchestrator: stepOrchestrator }),
    });
    const result = await (await manager.create({ id: 's' })).prompt('do the work').result();
    expect(result.error?.message).toContain('disk full');
    expect(machines.holders.has('s')).toBe(false);
  });
});

describe('removing a session with leases', () => {
  it('deletes an idle session under its lease and gives the lease back; an unknown id is false', async () => {
    const machines = new Machines();
    const work = worker();
    work.finish();
    const manager = processOn(machines, 'a', work.tool);
    await (await manager.create({ id: 's' })).prompt('do the work').result();
    expect(await processOn(machines, 'b', work.tool).remove('s')).toBe(true);
    expect(machines.holders.has('s')).toBe(false);
    expect(await processOn(machines, 'b', work.tool).remove('s')).toBe(false);
  });
});
