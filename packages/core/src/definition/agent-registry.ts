import { RegistryError } from '../errors/registry-error.js';
import type { AgentDefinition } from './agent-definition.js';
import { validateDefinition } from './validate-definition.js';

/**
 * Agent definitions by name. Create one per app (or per test) and hand it to
 * an `AgentExecutor`; `defaultAgentRegistry` is one shared instance for apps
 * that want a single place.
 *
 * Contract:
 * - `register` validates the definition (throws `AgentDefinitionError`) and
 *   throws `RegistryError` (`duplicate_name`) for a name already present.
 * - `get` is a map lookup, O(1); it returns undefined for an unknown name.
 *
 * @example
 * const registry = new AgentRegistry().register(summarizer);
 * const found = registry.get('summarizer');
 */
export class AgentRegistry {
  readonly #definitions = new Map<string, AgentDefinition<unknown>>();

  constructor(definitions: readonly AgentDefinition<unknown>[] = []) {
    for (const definition of definitions) this.register(definition);
  }

  /** Validates and adds a definition. */
  register(definition: AgentDefinition<unknown>): this {
    validateDefinition(definition);
    if (this.#definitions.has(definition.name)) {
      throw new RegistryError('duplicate_name', 'agent definition', definition.name, [
        ...this.#definitions.keys(),
      ]);
    }
    this.#definitions.set(definition.name, definition);
    return this;
  }

  /** The definition of that name, or undefined. */
  get(name: string): AgentDefinition<unknown> | undefined {
    return this.#definitions.get(name);
  }

  /** The definition of that name; throws `RegistryError` listing the registered names when unknown. */
  require(name: string): AgentDefinition<unknown> {
    const definition = this.#definitions.get(name);
    if (definition === undefined) {
      throw new RegistryError('unknown_name', 'agent definition', name, [...this.#definitions.keys()]);
    }
    return definition;
  }

  /** True when a definition of that name is registered. */
  has(name: string): boolean {
    return this.#definitions.has(name);
  }

  /** All definitions, in registration order. */
  list(): AgentDefinition<unknown>[] {
    return [...this.#definitions.values()];
  }

  /** The same as `list()`, under the name seed documents use. */
  getAll(): AgentDefinition<unknown>[] {
    return this.list();
  }

  /** Removes a definition; returns whether it was there. */
  unregister(name: string): boolean {
    return this.#definitions.delete(name);
  }

  /** Removes every definition, e.g. between tests. */
  clear(): void {
    this.#definitions.clear();
  }
}

// On globalThis under a Symbol.for key, like core's other registries, so two copies of core share it.
const key = Symbol.for('agent-core.agent-registry.v1');

function sharedRegistry(): AgentRegistry {
  const global = globalThis as { [key]?: AgentRegistry };
  global[key] ??= new AgentRegistry();
  return global[key];
}

/** The app-wide registry an `AgentExecutor` uses when given none. Reset it in tests with `clear()`. */
export const defaultAgentRegistry: AgentRegistry = sharedRegistry();
