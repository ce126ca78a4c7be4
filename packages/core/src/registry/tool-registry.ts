import { RegistryError } from '../errors/registry-error.js';
import { getToolPack, listToolPacks, type ToolPackFactory } from './registries.js';
import type { AnyTool } from '../tool/tool.js';

/**
 * A set of tools by name, plus named packs. `resolvePacks` looks in this
 * registry's own packs first, then in the packs registered globally by tool
 * packages (`fs`, `shell`, `mcp`, ...).
 */
export class ToolRegistry {
  readonly #tools = new Map<string, AnyTool>();
  readonly #packs = new Map<string, ToolPackFactory>();

  constructor(tools: readonly AnyTool[] = []) {
    for (const tool of tools) this.register(tool);
  }

  /** Adds a tool. Throws `RegistryError` if a tool of that name is already here. */
  register(tool: AnyTool): this {
    if (this.#tools.has(tool.name))
      throw new RegistryError('duplicate_name', 'tool', tool.name, [...this.#tools.keys()]);
    this.#tools.set(tool.name, tool);
    return this;
  }

  /** Removes a tool; returns whether it was there. */
  unregister(name: string): boolean {
    return this.#tools.delete(name);
  }

  /** The tool of that name, or undefined. */
  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** All tools, in registration order. */
  list(): AnyTool[] {
    return [...this.#tools.values()];
  }

  /** Adds a named pack local to this registry. */
  registerPack(name: string, pack: readonly AnyTool[] | ToolPackFactory): this {
    if (this.#packs.has(name))
      throw new RegistryError('duplicate_name', 'tool pack', name, [...this.#packs.keys()]);
    this.#packs.set(name, typeof pack === 'function' ? pack : () => [...pack]);
    return this;
  }

  /**
   * The tools of the named packs, in order, without duplicates by name.
   * `options[pack]` is passed to that pack's factory.
   */
  resolvePacks(names: readonly string[], options: Record<string, Record<string, unknown>> = {}): AnyTool[] {
    const tools = new Map<string, AnyTool>();
    for (const name of names) {
      const local = this.#packs.get(name);
      let pack: AnyTool[];
      if (local !== undefined) pack = local(options[name]);
      else {
        try {
          pack = getToolPack(name, options[name]);
        } catch (error) {
          // Only "no such pack" gains this registry's own names; a factory's own error is reported as it is.
          if (!isUnknownPack(error, name)) throw error;
          throw new RegistryError('unknown_name', 'tool pack', name, [
            ...new Set([...this.#packs.keys(), ...listToolPacks()]),
          ]);
        }
      }
      for (const tool of pack) if (!tools.has(tool.name)) tools.set(tool.name, tool);
    }
    return [...tools.values()];
  }
}

function isUnknownPack(error: unknown, name: string): boolean {
  return (
    RegistryError.isInstance(error) &&
    error.code === 'unknown_name' &&
    (error as RegistryError).registry === 'tool pack' &&
    (error as RegistryError).entryName === name
  );
}
