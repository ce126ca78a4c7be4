import type { AgentEvent, AgentResult } from '@agent-core/core';

/**
 * What the property runs of one orchestrator went through: how runs ended,
 * how many tools ran, paused, compacted, were skipped by steering. Printed
 * by the soak run, so its figures show the runs reached the paths they claim
 * to test.
 */
export class LoopStatistics {
  readonly #counts = new Map<string, number>();

  /** Counts one property run. */
  scenario(): void {
    this.#add('property runs');
  }

  /** Counts one run (a prompt or a resume) by how it ended, and what its events show. */
  run(phase: string, result: AgentResult, events: readonly AgentEvent[]): void {
    this.#add(
      `${phase} ended ${result.terminateReason}${result.error === undefined ? '' : ` (${result.error.code})`}`,
    );
    this.#add('tool calls answered', result.toolCalls.length);
    for (const event of events) {
      if (event.type === 'compaction') this.#add('compactions');
      else if (event.type === 'tool_skipped') this.#add('tool calls skipped');
      else if (event.type === 'steering') this.#add('steering messages taken');
      else if (event.type === 'follow_up') this.#add('follow-up messages taken');
      else if (event.type === 'retry') this.#add('model calls retried');
      else if (event.type === 'approval') this.#add(`approvals answered (${event.source})`);
      else if (event.type === 'custom') this.#add(`${event.name} events`);
    }
  }

  /** The counts, one per line, sorted by name. */
  toString(): string {
    return [...this.#counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, count]) => `  ${name}: ${count}`)
      .join('\n');
  }

  #add(name: string, count = 1): void {
    this.#counts.set(name, (this.#counts.get(name) ?? 0) + count);
  }
}
