import { MemorySessionStore, newSessionState } from '@agent-core/core';
import picocolors from 'picocolors';
import { describe, expect, it } from 'vitest';
import { approvalsCommand } from './approvals-command.js';
import { listSessions } from './sessions-commands.js';

describe('listing many sessions', () => {
  it('the inbox and sessions list ask the store for all summaries at once and load only the sessions that wait', async () => {
    const store = new MemorySessionStore();
    for (let index = 0; index < 450; index++) {
      const state = newSessionState({ id: `s${index}` });
      state.messages = [{ role: 'user', content: `prompt ${index}` }];
      await store.save(state, { expectedVersion: 0 });
    }
    let lists = 0;
    let loads = 0;
    const counting = Object.assign(Object.create(store) as MemorySessionStore, {
      list: (options?: Parameters<MemorySessionStore['list']>[0]) => {
        lists++;
        return store.list(options);
      },
      load: (id: string) => {
        loads++;
        return store.load(id);
      },
    });
    const out: string[] = [];
    await approvalsCommand(
      counting,
      { write: (text: string) => out.push(text) },
      picocolors.createColors(false),
    );
    // A store that reads every summary per page made a walk of thousands quadratic: one page here.
    expect(lists).toBe(1);
    expect(loads).toBe(0);
    expect(out.join('')).toBe('No session is waiting for a decision.\n');
    lists = 0;
    await listSessions(
      { store: counting, label: 'memory', kind: 'memory', close: async () => {} },
      Number.POSITIVE_INFINITY,
      {
        write: (text: string) => out.push(text),
      },
    );
    expect(lists).toBe(1);
    expect(
      out
        .join('')
        .split('\n')
        .filter((line) => line.startsWith('s')),
    ).toHaveLength(450);
  });
});
