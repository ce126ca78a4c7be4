import { ConfigError } from '@agent-core/core';

const plainIdentifier = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Checks a schema name (letters, digits and `_`, not starting with a digit, at most 63) and returns it quoted for SQL. */
export function quotedSchema(name: unknown): string {
  if (typeof name !== 'string' || !plainIdentifier.test(name)) {
    throw new ConfigError(
      `schema must be a PostgreSQL schema name of letters, digits and '_' (not starting with a digit, at most 63 characters), got ${JSON.stringify(name)}.`,
    );
  }
  return `"${name}"`;
}

/** A 32-bit key for the schema's advisory lock: FNV-1a of its name, so each schema migrates under its own lock. */
export function schemaLockKey(name: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) {
    hash ^= name.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}
