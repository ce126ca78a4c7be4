import { loadSchemaSupport, type PreparedTool, prepareTool } from '../tool/prepare-tool.js';
import type { AnyTool } from '../tool/tool.js';
import type { OrchestratorTool } from '../orchestrator/orchestrator.js';

/** An agent's tools made ready for runs: each by name, and the specs sent to the model. */
export interface PreparedTools {
  tools: readonly AnyTool[];
  byName: Map<string, PreparedTool>;
  specs: PreparedTool['spec'][];
  /** The tools as orchestrators get them (`ctx.tools`), made by the first run. */
  views?: readonly OrchestratorTool[];
}

/** The name index and specs made for a list of tools: shared by every agent given the same tools. */
interface SharedPreparation {
  tools: readonly AnyTool[];
  byName: Map<string, PreparedTool>;
  specs: PreparedTool['spec'][];
}

/**
 * Preparations by first tool, each for a list of the same tools in the same
 * order: an app that makes an agent per session from one tool list prepares
 * it once, and a session holds no index of its own. Nothing in them is
 * changed after they are made (a `beforeRun` hook that changes the tools gets
 * its own), and a preparation lives as long as its first tool.
 */
const shared = new WeakMap<AnyTool, SharedPreparation[]>();
const noTools: SharedPreparation = { tools: [], byName: new Map(), specs: [] };

function sameTools(left: readonly AnyTool[], right: readonly AnyTool[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

/** The shared preparation of `tools`, made (and kept) if there is none yet. */
function preparationOf(tools: readonly AnyTool[]): SharedPreparation {
  const first = tools[0];
  if (first === undefined) return noTools;
  const known = shared.get(first);
  if (known !== undefined) for (const entry of known) if (sameTools(entry.tools, tools)) return entry;
  const byName = new Map<string, PreparedTool>();
  const specs: PreparedTool['spec'][] = [];
  for (const tool of tools) {
    const prepared = prepareTool(tool);
    byName.set(tool.name, prepared);
    specs.push(prepared.spec);
  }
  // A copy of the list: an agent's own array may change after it was given.
  const entry: SharedPreparation = { tools: [...tools], byName, specs };
  if (known === undefined) shared.set(first, [entry]);
  else {
    // A few lists per first tool at most in practice; the newest first, eight kept.
    known.unshift(entry);
    if (known.length > 8) known.length = 8;
  }
  return entry;
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
    const preparation = preparationOf(tools);
    this.#prepared = { tools, byName: preparation.byName, specs: preparation.specs };
    return this.#prepared;
  }
}
