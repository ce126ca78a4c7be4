import type { PlanEntry } from '@agentclientprotocol/sdk';

interface PlanStepLike {
  title: string;
}

/**
 * Follows the `custom` events of a plan-and-execute orchestrator (`plan`,
 * `step_start`, `step_end`, `replan`) by name and shape, without importing it,
 * and gives the plan's entries as ACP shows them after each. Steps done before a
 * re-plan stay at the top as completed.
 */
export class PlanTracker {
  #done: PlanEntry[] = [];
  #current: PlanEntry[] = [];

  /** The entries after this event, or undefined when the event is not about the plan. */
  update(name: string, data: unknown): PlanEntry[] | undefined {
    const record = (data ?? {}) as { steps?: PlanStepLike[]; index?: number; status?: string };
    switch (name) {
      case 'plan':
        this.#done = [];
        this.#current = entriesOf(record.steps);
        return this.entries();
      case 'replan': {
        this.#done = [...this.#done, ...this.#current].filter((entry) => entry.status === 'completed');
        this.#current = entriesOf(record.steps);
        return this.entries();
      }
      case 'step_start':
      case 'step_end': {
        const entry = [...this.#done, ...this.#current][record.index ?? -1];
        if (entry === undefined) return undefined;
        // ACP has no failed entry: a failed step goes back to pending until a re-plan replaces it.
        entry.status =
          name === 'step_start' ? 'in_progress' : record.status === 'done' ? 'completed' : 'pending';
        return this.entries();
      }
      default:
        return undefined;
    }
  }

  /** The current entries; copies, so a recorded plan never changes afterwards. */
  entries(): PlanEntry[] {
    return [...this.#done, ...this.#current].map((entry) => ({ ...entry }));
  }
}

function entriesOf(steps: PlanStepLike[] | undefined): PlanEntry[] {
  return (steps ?? []).map((step) => ({ content: step.title, priority: 'medium', status: 'pending' }));
}
