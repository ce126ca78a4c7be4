import type { AgentEventInput } from '../events/agent-event.js';
import type { Usage } from '../messages/messages.js';
import { addUsage, emptyUsage } from '../messages/usage.js';
import type { ToolEventInput, ToolRunAccess } from '../tool/tool.js';
import type { RunContext } from './run-context.js';

/**
 * The `ToolContext.run` of one run: made on the first tool call and closed
 * when the orchestrator has finished, so a subagent that outlives an aborted
 * parent cannot add events after the parent's `agent_end`.
 */
export class RunAccess implements ToolRunAccess {
  readonly #context: RunContext;
  #closed = false;

  constructor(context: RunContext) {
    this.#context = context;
  }

  get runId(): string {
    return this.#context.state.runId;
  }

  emit(event: ToolEventInput): void {
    // A tool's event is one of the run's (or an app-defined one): the run stamps and delivers it as any other.
    if (!this.#closed) this.#context.emit(event as unknown as AgentEventInput);
  }

  addUsage(agent: string, usage: Usage): void {
    if (this.#closed) return;
    const state = this.#context.state;
    addUsage(state.usage, usage);
    state.usageByAgent ??= {};
    const entry = (state.usageByAgent[agent] ??= emptyUsage());
    addUsage(entry, usage);
  }

  /** Stops forwarding: the run has ended. */
  close(): void {
    this.#closed = true;
  }
}
