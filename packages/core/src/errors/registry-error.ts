import { AgentError } from './agent-error.js';

/** A registry lookup or registration failed: an unknown name or a duplicate one. */
export class RegistryError extends AgentError {
  readonly registry: string;
  readonly entryName: string;
  readonly known: readonly string[];

  constructor(
    code: 'unknown_name' | 'duplicate_name',
    registry: string,
    entryName: string,
    known: readonly string[],
  ) {
    const list = known.length > 0 ? known.join(', ') : 'none';
    super(
      code,
      code === 'unknown_name'
        ? `No ${registry} named '${entryName}' is registered. Registered: ${list}. Import the package that provides it, or register it first.`
        : `${/^[aeiou]/i.test(registry) ? 'An' : 'A'} ${registry} named '${entryName}' is already registered. Pick another name or unregister the existing one first.`,
    );
    this.name = 'RegistryError';
    this.registry = registry;
    this.entryName = entryName;
    this.known = known;
  }
}
