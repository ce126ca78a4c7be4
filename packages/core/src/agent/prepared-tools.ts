import { loadSchemaSupport, type PreparedTool, prepareTool } from '../tool/prepare-tool.js';
import type { AnyTool } from '../tool/tool.js';

/** An agent's tools made ready for runs: each by name, and the specs sent to the model. */
export interface PreparedTools {
  tools: readonly AnyTool[];
  byName: Map<string, PreparedTool>;
  specs: PreparedTool['spec'][];
}

/**
 * An agent's tools and their preparation, kept between runs so a run that
 * reuses them awaits nothing. `set` replaces the tools from the next run on.
 */
export class ToolPreparation {
  #tools: readonly AnyTool[];
  #prepared: PreparedTools | undefined;

  constructor(tools: readonly AnyTool[]) {
    this.#tools = tools;
  }

  get tools(): readonly AnyTool[] {
    return this.#tools;
  }

  /** The tools as prepared for the last run, if they have not changed since. */
  get ready(): PreparedTools | undefined {
    return this.#prepared;
  }

  set(tools: readonly AnyTool[]): void {
    this.#tools = tools;
    this.#prepared = undefined;
  }

  /** Prepares the current tools (loading schema support the first time it is needed). */
  async prepare(): Promise<PreparedTools> {
    if (this.#prepared !== undefined) return this.#prepared;
    const tools = this.#tools;
    await loadSchemaSupport(tools);
    // set() during the await wins: prepare what is current, never cache a replaced list.
    if (this.#tools !== tools) return this.prepare();
    const byName = new Map<string, PreparedTool>();
    const specs: PreparedTool['spec'][] = [];
    for (const tool of tools) {
      const prepared = prepareTool(tool);
      byName.set(tool.name, prepared);
      specs.push(prepared.spec);
    }
    this.#prepared = { tools, byName, specs };
    return this.#prepared;
  }
}
