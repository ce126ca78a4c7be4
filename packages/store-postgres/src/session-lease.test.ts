import { type AgentError, newSessionState, type SessionLease } from '@agent-core/core';
import { sampleEvents } from '@agent-core/core/testing';
import { describe, expect, it } from 'vitest';
import type { PostgresSessionLease } from './postgres-session-lease.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { until } from '@agent-core/test-support/until';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';

const { server, track } = usePostgresServer();

function open(schema: string, leaseDurationMs?: number): PostgresSessionStore {
  const store = new PostgresSessionStore({
    connectionString: server.url,
    schema,
    maxConnections: 3,
    ...(leaseDurationMs === undefined ? {} : { leaseDurationMs }),
  });
  track(store);
  return store;
}

const token = (lease: SessionLease) => BigInt((lease as PostgresSessionLease).token);

async function expiresAt(store: PostgresSessionStore, id: string): Promise<number | undefined> {
  const { rows } = await server.admin.query(
    `SELECT lease_expires_at FROM "${store.schema}".agent_core_sessions WHERE id = $1`,
    [id],
  );
  const value = rows[0]?.lease_expires_at as Date | null | undefined;
  return value === null || value === undefined ? undefined : value.getTime();
}

describe('PostgresSessionStore leases', () => {
  it('fencing tokens only go up: after a release, a takeover, and a delete and a new session under the same id', async () => {
    const schema = server.newSchema();
    const store = open(schema);
    const other = open(schema, 0);
    await store.save(newSessionState({ id: 'fenced' }), { expectedVersion: 0 });
    const first = await store.lease('fenced');
    await first.release();
    const second = await store.lease('fenced');
    expect(token(second)).toBeGreaterThan(token(first));
    await second.release();
    const lapsing = await other.lease('fenced');
    const taken = await store.lease('fenced');
    expect(token(lapsing)).toBeGreaterThan(token(second));
    expect(token(taken)).toBeGreaterThan(token(lapsing));
    await taken.release();
    expect(await store.delete('fenced')).toBe(true);
    await store.save(newSessionState({ id: 'fenced' }), { expectedVersion: 0 });
    const again = await store.lease('fenced');
    expect(token(again)).toBeGreaterThan(token(taken));
    // The lease from before the delete writes nothing into the new session.
    await expect(
      store.append('fenced', sampleEvents('old'), { operationId: 'old', lease: taken }),
    ).rejects.toMatchObject({ code: 'session_lease_lost' });
    await again.release();
  });

  it('a held lease is renewed past its duration; once its holder stops renewing, it lapses and is taken over', async () => {
    const schema = server.newSchema();
    const holder = open(schema, 900);
    const contender = open(schema, 900);
    await holder.save(newSessionState({ id: 'renewed' }), { expectedVersion: 0 });
    const held = await holder.lease('renewed');
    const granted = (await expiresAt(holder, 'renewed')) as number;
    // The renewal (every 300 ms) moves the expiry on, on the server's clock.
    await until(async () => ((await expiresAt(holder, 'renewed')) ?? 0) > granted + 200, 'a renewal');
    const busy = await contender.lease('renewed').then(
      () => undefined,
      (error: unknown) => error as AgentError & { holder?: string },
    );
    expect(busy?.code).toBe('session_busy');
    expect(busy?.holder).toContain(`process ${process.pid} on `);
    expect(busy?.message).toContain('running a prompt in another process');

    // A holder that stops renewing (as a stopped process does) loses the lease once it lapses.
    (held as PostgresSessionLease).stopRenewing();
    const taken = await until(
      () => contender.lease('renewed').catch(() => undefined),
      'the lapsed lease to be taken over',
    );
    expect(token(taken)).toBeGreaterThan(token(held));
    await expect(
      holder.append('renewed', sampleEvents('late'), { operationId: 'late', lease: held }),
    ).rejects.toMatchObject({ code: 'session_lease_lost' });
    await taken.release();
    // Its release after the takeover gives back nothing of the new holder's.
    await held.release();
    const next = await holder.lease('renewed');
    expect(token(next)).toBeGreaterThan(token(taken));
    await next.release();
  });

  it('a running session is listed running while its lease is live, interrupted once it was given back', async () => {
    const store = open(server.newSchema());
    await store.save(newSessionState({ id: 'run' }), { expectedVersion: 0 });
    const lease = await store.lease('run');
    await store.append('run', [{ type: 'run_started', runId: 'r', at: '2026-07-01T00:00:00.000Z' }], {
      operationId: 'start',
      lease,
    });
    expect((await store.list()).sessions[0]?.status).toBe('running');
    await lease.release();
    expect((await store.list()).sessions[0]?.status).toBe('interrupted');
  });

  it('refuses a lease that is not one of its own, or of another session, with a clear ConfigError', async () => {
    const store = open(server.newSchema());
    await store.save(newSessionState({ id: 'one' }), { expectedVersion: 0 });
    await store.save(newSessionState({ id: 'two' }), { expectedVersion: 0 });
    const foreign: SessionLease = { release: async () => {} };
    await expect(
      store.append('one', sampleEvents('x'), { operationId: 'x', lease: foreign }),
    ).rejects.toThrow(/not one a PostgresSessionStore gave/);
    const lease = await store.lease('two');
    await expect(store.save({ ...(await store.load('one')) }, { expectedVersion: 1, lease })).rejects.toThrow(
      /is session 'two's, not 'one's/,
    );
    await lease.release();
    expect((await store.read('one')).length).toBe(0);
  });
});
