import { ConfigError, type Logger, MemorySessionStore, type SessionStore } from '@agent-core/core';

/** What `openStore` gives: the store, how `sessions` commands name it, and how to close it. */
export interface OpenedStore {
  store: SessionStore;
  /** The folder or URL, user info masked, for messages. */
  label: string;
  kind: 'file' | 'memory' | 'postgres';
  /** Ends what the store opened (a database's connections); resolves at once for the others. */
  close(): Promise<void>;
}

/**
 * The one place a session store is chosen from its spec: a folder is a
 * `FileSessionStore`, a `postgres://` (or `postgresql://`) URL a
 * `PostgresSessionStore` shared by every process that points at it (its
 * schema is created on first use), `memory:` keeps sessions in this process
 * only (`--no-session`). Each store's package loads only here. `leaseDurationMs`
 * is the PostgreSQL store's run lease (a worker's, from `[worker] lease_ms`).
 */
export async function openStore(
  spec: string,
  logger: Logger,
  options: { leaseDurationMs?: number } = {},
): Promise<OpenedStore> {
  if (spec === 'memory:')
    return {
      store: new MemorySessionStore(),
      label: 'memory (this process only)',
      kind: 'memory',
      close: async () => {},
    };
  const label = spec.replace(/\/\/[^@/]*@/, '//***@');
  if (/^postgres(ql)?:\/\//i.test(spec)) {
    const { PostgresSessionStore } = await import('@agent-core/store-postgres');
    const lease = options.leaseDurationMs === undefined ? {} : { leaseDurationMs: options.leaseDurationMs };
    const store = new PostgresSessionStore({ connectionString: spec, logger, ...lease });
    return { store, label, kind: 'postgres', close: () => store.close() };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) {
    throw new ConfigError(`Unknown store '${label}': the store is a folder path or a postgres:// URL.`);
  }
  const { FileSessionStore } = await import('@agent-core/store-file');
  return {
    store: new FileSessionStore({ root: spec, logger }),
    label: spec,
    kind: 'file',
    close: async () => {},
  };
}
