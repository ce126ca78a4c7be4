import { ConfigError } from '@agent-core/core';

/**
 * How a cassette provider answers: `replay` serves recordings only and fails
 * closed on a request it has none for; `record` sends every request to the
 * real provider and writes the cassette anew; `record-missing` serves what is
 * recorded and records what is not.
 */
export type CassetteMode = 'replay' | 'record' | 'record-missing';

/** The environment variable that chooses the mode when the code does not: `AGENT_CORE_CASSETTE=record pnpm test`. */
export const cassetteModeVariable = 'AGENT_CORE_CASSETTE';

const modes: readonly CassetteMode[] = ['replay', 'record', 'record-missing'];

/**
 * The mode to use: the option when given, else `AGENT_CORE_CASSETTE`, else
 * `replay`, so a test run in CI never reaches a model unless told to. A value
 * that names no mode is a `ConfigError`.
 */
export function resolveCassetteMode(option: CassetteMode | undefined): CassetteMode {
  const fromEnvironment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env?.[cassetteModeVariable];
  const chosen = option ?? (fromEnvironment === '' ? undefined : fromEnvironment) ?? 'replay';
  if (!modes.includes(chosen as CassetteMode)) {
    const source = option === undefined ? `${cassetteModeVariable}=${chosen}` : `mode '${chosen}'`;
    throw new ConfigError(
      `Unknown cassette ${source}: use one of ${modes.map((mode) => `'${mode}'`).join(', ')}.`,
    );
  }
  return chosen as CassetteMode;
}
