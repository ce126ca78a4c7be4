import { newSessionState } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';

const { server, track } = usePostgresServer();

function open(schema: string, autoMigrate = true): PostgresSessionStore {
  const store = new PostgresSessionStore({
    connectionString: server.url,
    schema,
    autoMigrate,
    maxConnections: 2,
  });
  track(store);
  return store;
}

async function versions(schema: string): Promise<number[]> {
  const { rows } = await server.admin.query(
    `SELECT version FROM "${schema}".agent_core_schema_version ORDER BY version`,
  );
  return rows.map((row) => Number(row.version));
}

describe('schema migrations', () => {
  it('many processes starting at once on an empty database create the schema once, and all of them work', async () => {
    const schema = server.newSchema();
    const stores = Array.from({ length: 6 }, () => open(schema));
    const [migrated] = await Promise.all([
      migrate({ connectionString: server.url, schema }),
      ...stores.map((store, index) =>
        store.save(newSessionState({ id: `s${index}` }), { expectedVersion: 0 }),
      ),
    ]);
    expect(migrated).toMatchObject({ schema, to: 1 });
    expect(await versions(schema)).toEqual([1]);
    expect((await stores[0]?.list())?.sessions.map((summary) => summary.id).sort()).toEqual([
      's0',
      's1',
      's2',
      's3',
      's4',
      's5',
    ]);
    expect(await migrate({ connectionString: server.url, schema })).toEqual({ schema, from: 1, to: 1 });
  });

  it('with autoMigrate: false the store asks for migrate() first, then works', async () => {
    const schema = server.newSchema();
    const store = open(schema, false);
    await expect(store.list()).rejects.toThrow(/schema version 0, and this store needs 1. Run migrate/);
    expect(await migrate({ pool: server.admin, schema })).toEqual({ schema, from: 0, to: 1 });
    expect(await store.list()).toEqual({ sessions: [] });
  });

  it('refuses tables of a newer version of the package and changes nothing', async () => {
    const schema = server.newSchema();
    await migrate({ connectionString: server.url, schema });
    await server.admin.query(
      `INSERT INTO "${schema}".agent_core_schema_version (version, description) VALUES (2, 'from the future')`,
    );
    const store = open(schema);
    await expect(store.load('any')).rejects.toThrow(
      /schema version 2, written by a newer @agent-core\/store-postgres/,
    );
    await expect(migrate({ connectionString: server.url, schema })).rejects.toMatchObject({
      code: 'invalid_config',
    });
    expect(await versions(schema)).toEqual([1, 2]);
  });

  it('migrate() needs exactly one of connectionString and pool, and a valid schema name', async () => {
    await expect(migrate({ schema: 'x' })).rejects.toThrow(/exactly one of connectionString or pool/);
    await expect(migrate({ connectionString: server.url, schema: '1bad' })).rejects.toThrow(/schema must be/);
  });
});
