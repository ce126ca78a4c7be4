import { ConfigError } from '@agent-core/core';

/**
 * Imports a plugin package the first time it is needed, so start-up pays only
 * for what a command uses. A package that is not installed is a `ConfigError`
 * that says how to install it.
 */
export async function importPlugin(
  name: string,
  packageName: string | undefined,
  kind: string,
): Promise<void> {
  if (packageName === undefined) return;
  try {
    await import(packageName);
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') {
      throw new ConfigError(
        `The ${kind} '${name}' needs ${packageName}; install it with: npm i ${packageName}`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

/** Refuses a name that is not among `known`, listing what the CLI can load. */
export function checkKnown(kind: string, where: string, name: string, known: readonly string[]): void {
  if (!known.includes(name)) {
    throw new ConfigError(`Unknown ${kind} '${name}' (${where}). The CLI can load: ${known.join(', ')}.`);
  }
}

/** Every name of a kind the CLI can load: those it imports on demand and those already registered, sorted. */
export function loadableNames(
  builtIn: readonly string[],
  packages: Record<string, string>,
  registered: string[],
) {
  return [...new Set([...builtIn, ...Object.keys(packages), ...registered])]
    .filter((name) => name !== 'mcp')
    .sort();
}
