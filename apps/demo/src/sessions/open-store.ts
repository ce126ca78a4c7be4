import { ConfigError, type Logger, MemorySessionStore, type SessionStore } from '@agent-core/core';

/** What `openStore` gives: the store, and how `sessions` commands name it. */
export interface OpenedStore {
  store: SessionStore;
  /** The folder or URL, user info masked, for messages. */
  label: string;
  kind: 'file' | 'memory';
}

/**
 * The one place a session store is chosen from its spec: a folder is a
 * `FileSessionStore` (its package loads only here), `memory:` keeps sessions
 * in this process only (`--no-session`). A `postgres://` URL will be
 * `@agent-core/store-postgres`; until that package is part of the CLI it is a
 * `ConfigError` that says so.
 */
export async function openStore(spec: string, logger: Logger): Promise<OpenedStore> {
  if (spec === 'memory:')
    return { store: new MemorySessionStore(), label: 'memory (this process only)', kind: 'memory' };
  if (/^postgres(ql)?:\/\//i.test(spec)) {
    throw new ConfigError(
      'A postgres:// store needs @agent-core/store-postgres, which this version of the CLI does not include yet. Use a folder for the store (the default), or set store to a path.',
    );
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) {
    throw new ConfigError(
      `Unknown store '${spec.replace(/\/\/[^@/]*@/, '//***@')}': the store is a folder path (or a postgres:// URL once supported).`,
    );
  }
  const { FileSessionStore } = await import('@agent-core/store-file');
  return { store: new FileSessionStore({ root: spec, logger }), label: spec, kind: 'file' };
}
