import { sessionStoreConformance } from '@agent-core/core/testing';
import { describe, test } from 'vitest';
import { PostgresSessionStore } from './postgres-session-store.js';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';

const { server, track } = usePostgresServer();

// Each test in its own schema; another handle is another pool, as another process would have.
sessionStoreConformance(
  () =>
    track(
      new PostgresSessionStore({
        connectionString: server.url,
        schema: server.newSchema(),
        maxConnections: 4,
      }),
    ),
  { test, describe },
  {
    leases: true,
    reopen: (store) =>
      track(
        new PostgresSessionStore({
          connectionString: server.url,
          schema: (store as PostgresSessionStore).schema,
          maxConnections: 2,
        }),
      ),
    // Leases that expire at once and are never renewed: what a stopped process's leases become.
    stoppedHolder: (store) =>
      track(
        new PostgresSessionStore({
          connectionString: server.url,
          schema: (store as PostgresSessionStore).schema,
          maxConnections: 2,
          leaseDurationMs: 0,
        }),
      ),
    // As another program could write the row: the JSON text kept as a jsonb string, as the store keeps what jsonb refuses.
    writeRawSnapshot: async (store, id, json) => {
      const schema = (store as PostgresSessionStore).schema;
      await server.admin.query(
        `UPDATE "${schema}".agent_core_sessions SET state = to_jsonb($2::text) WHERE id = $1`,
        [id, json],
      );
    },
  },
);
