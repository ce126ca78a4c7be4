import { RegistryError } from '../errors/registry-error.js';
import type { Orchestrator } from '../orchestrator/orchestrator.js';
import type { Provider } from '../provider/provider.js';
import type { AnyTool } from '../tool/tool.js';

/** Builds a provider from options, as `anthropic({ apiKey })` does. */
export type ProviderFactory = (options?: Record<string, unknown>) => Provider;
/** Builds an orchestrator from options, as `agentic({ toolExecution })` does. */
export type OrchestratorFactory = (options?: Record<string, unknown>) => Orchestrator;
/** Builds the tools of a pack from options, as `fsTools({ root })` does. */
export type ToolPackFactory = (options?: Record<string, unknown>) => AnyTool[];

/** What to do when a name is already registered: throw (the default), keep the old entry, or replace it. */
export type OnDuplicate = 'throw' | 'keep' | 'replace';

/** Options for the register functions. */
export interface RegisterOptions {
  onDuplicate?: OnDuplicate;
}

interface Registries {
  providers: Map<string, ProviderFactory>;
  orchestrators: Map<string, OrchestratorFactory>;
  toolPacks: Map<string, ToolPackFactory>;
  defaultOrchestrator: string | undefined;
}

// On globalThis under a Symbol.for key, so two copies of core share one set of registries.
const key = Symbol.for('agent-core.registries.v1');

function registries(): Registries {
  const global = globalThis as { [key]?: Registries };
  let current = global[key];
  if (current === undefined) {
    current = {
      providers: new Map(),
      orchestrators: new Map(),
      toolPacks: new Map(),
      defaultOrchestrator: undefined,
    };
    global[key] = current;
  }
  return current;
}

function register<T>(
  map: Map<string, T>,
  kind: string,
  name: string,
  factory: T,
  options: RegisterOptions | undefined,
): () => void {
  const existing = map.get(name);
  if (existing !== undefined) {
    const onDuplicate = options?.onDuplicate ?? 'throw';
    if (onDuplicate === 'throw') throw new RegistryError('duplicate_name', kind, name, [...map.keys()]);
    if (onDuplicate === 'keep') return () => {};
  }
  map.set(name, factory);
  return () => {
    if (map.get(name) === factory) map.delete(name);
  };
}

function lookup<T>(map: Map<string, T>, kind: string, name: string): T {
  const factory = map.get(name);
  if (factory === undefined) throw new RegistryError('unknown_name', kind, name, [...map.keys()]);
  return factory;
}

/** Registers a provider factory by name. Returns a function that undoes it. */
export function registerProvider(
  name: string,
  factory: ProviderFactory,
  options?: RegisterOptions,
): () => void {
  return register(registries().providers, 'provider', name, factory, options);
}

/** Builds the named provider. Throws `RegistryError` listing the registered names when unknown. */
export function getProvider(name: string, options?: Record<string, unknown>): Provider {
  return lookup(registries().providers, 'provider', name)(options);
}

/** Names of the registered providers. */
export function listProviders(): string[] {
  return [...registries().providers.keys()];
}

/**
 * Registers an orchestrator factory by name; `isDefault` makes it the one an
 * Agent uses when given none. Returns a function that undoes both.
 */
export function registerOrchestrator(
  name: string,
  factory: OrchestratorFactory,
  options?: RegisterOptions & { isDefault?: boolean },
): () => void {
  const state = registries();
  const unregister = register(state.orchestrators, 'orchestrator', name, factory, options);
  const previousDefault = state.defaultOrchestrator;
  if (options?.isDefault === true && (previousDefault === undefined || options.onDuplicate !== 'keep')) {
    state.defaultOrchestrator = name;
  }
  return () => {
    unregister();
    if (state.defaultOrchestrator === name && !state.orchestrators.has(name))
      state.defaultOrchestrator = previousDefault;
  };
}

/** Builds the named orchestrator. Throws `RegistryError` listing the registered names when unknown. */
export function getOrchestrator(name: string, options?: Record<string, unknown>): Orchestrator {
  return lookup(registries().orchestrators, 'orchestrator', name)(options);
}

/** Names of the registered orchestrators. */
export function listOrchestrators(): string[] {
  return [...registries().orchestrators.keys()];
}

/** Makes a registered orchestrator the default. */
export function setDefaultOrchestrator(name: string): void {
  const state = registries();
  lookup(state.orchestrators, 'orchestrator', name);
  state.defaultOrchestrator = name;
}

/** The name of the default orchestrator, if one is registered. */
export function getDefaultOrchestratorName(): string | undefined {
  return registries().defaultOrchestrator;
}

/** Registers a named tool pack. Returns a function that undoes it. */
export function registerToolPack(
  name: string,
  factory: ToolPackFactory,
  options?: RegisterOptions,
): () => void {
  return register(registries().toolPacks, 'tool pack', name, factory, options);
}

/** Builds the tools of the named pack. Throws `RegistryError` listing the registered names when unknown. */
export function getToolPack(name: string, options?: Record<string, unknown>): AnyTool[] {
  return lookup(registries().toolPacks, 'tool pack', name)(options);
}

/** Names of the registered tool packs. */
export function listToolPacks(): string[] {
  return [...registries().toolPacks.keys()];
}
