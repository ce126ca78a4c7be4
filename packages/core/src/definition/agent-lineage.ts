/** Where an agent run sits among subagents: its depth (0 at the root) and the agent names from the root to it. */
export interface AgentLineage {
  depth: number;
  path: readonly string[];
}

// Keyed by the Agent an executor made, so a subagent tool finds its caller's place from `ToolContext.agent`.
const lineages = new WeakMap<object, AgentLineage>();

/** Records the lineage of an agent an executor made. */
export function setLineage(agent: object, lineage: AgentLineage): void {
  lineages.set(agent, lineage);
}

/** The lineage of the agent running a tool; undefined for an agent no executor made (a root). */
export function lineageOf(agent: unknown): AgentLineage | undefined {
  return typeof agent === 'object' && agent !== null ? lineages.get(agent) : undefined;
}
