import { ConfigError } from '../errors/config-error.js';
import type { AppendSessionOptions, SaveSessionOptions } from './session-store.js';

/**
 * Throws `ConfigError` unless `options` is `{ expectedVersion }` with a whole
 * number >= 0 (the version loaded or last saved, 0 to create). Stores call it
 * in `save` before they write, so a call that could not mean anything writes nothing.
 */
export function checkSaveOptions(options: SaveSessionOptions): void {
  const expectedVersion = (options as Partial<SaveSessionOptions> | undefined)?.expectedVersion;
  if (typeof expectedVersion !== 'number' || !Number.isSafeInteger(expectedVersion) || expectedVersion < 0)
    throw new ConfigError(
      `save needs expectedVersion, the version loaded or last saved (0 to create), e.g. save(state, { expectedVersion: 0 }); got ${shown(options === undefined ? undefined : expectedVersion)}${options === undefined ? ' (no options)' : ''}.`,
    );
}

/**
 * Throws `ConfigError` unless `options.operationId` is a non-empty string
 * without NUL characters: the name that makes a retried append a no-op, which
 * every store must be able to keep. Stores call it in `append` before they write.
 */
export function checkAppendOptions(options: AppendSessionOptions): void {
  const operationId = (options as Partial<AppendSessionOptions> | undefined)?.operationId;
  if (typeof operationId !== 'string' || operationId === '' || operationId.includes('\u0000'))
    throw new ConfigError(
      `append needs an operationId, a non-empty string without NUL characters that names the append (the same again appends nothing), e.g. append(id, entries, { operationId: crypto.randomUUID() }); got ${shown(operationId)}${options === undefined ? ' (no options)' : ''}.`,
    );
}

/** A value for an error message: JSON for strings and numbers, its type for the rest. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null ? 'null' : value === undefined ? 'nothing' : `a value of type ${typeof value}`;
}
