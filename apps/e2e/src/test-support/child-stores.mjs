// What the child processes of the end-to-end tests share: the store they open from their
// arguments, and the check that every request a model is sent holds a valid history.
import { historyProblems } from '@agent-core/core';

/**
 * The store `<kind> <where>` names: `file` (`where` the root folder) or `postgres` (`where`
 * `<url>#<schema>`), with `postgresOptions` added to a PostgreSQL store's.
 */
export async function openStore(kind, where, postgresOptions = {}) {
  if (kind === 'file') {
    const { FileSessionStore } = await import('@agent-core/store-file');
    return new FileSessionStore({ root: where });
  }
  const { PostgresSessionStore } = await import('@agent-core/store-postgres');
  const [connectionString, schema] = where.split('#');
  return new PostgresSessionStore({ connectionString, schema, ...postgresOptions });
}

/** Ends the process with code 1 when `messages` are a history a model's API would refuse. */
export function exitOnInvalidHistory(messages) {
  const sent = historyProblems(messages);
  if (sent.length > 0) {
    process.stderr.write(`a model was sent an invalid history: ${JSON.stringify(sent)}\n`);
    process.exit(1);
  }
}
