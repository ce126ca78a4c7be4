import type { AgentMessage, UserMessage } from '@agent-core/core';

/** How a stored history's user messages are given to a replaying agent. */
export interface ReplayPlan {
  /** Messages that began a run, in order, with their index in the history. */
  prompts: { index: number; message: UserMessage }[];
  /** Messages a person typed during a run (steering), by their index in the history. */
  steering: Map<number, UserMessage>;
}

/**
 * Reads a stored history as prompts and steering: a user message right after
 * a tool result came in while the run was going on (steering), so the replay
 * gives it to the agent's steering poll when its history reaches the same
 * length; any other user message began a run (or followed one up, which sends
 * the model the same messages), so the replay prompts with it. App-defined
 * kinds (a compaction record) are passed over.
 */
export function replayPlan(history: readonly AgentMessage[]): ReplayPlan {
  const plan: ReplayPlan = { prompts: [], steering: new Map() };
  let previous: string | undefined;
  history.forEach((message, index) => {
    const role = (message as { role?: unknown }).role;
    if (role === 'user') {
      if (previous === 'toolResult') plan.steering.set(index, message as UserMessage);
      else plan.prompts.push({ index, message: message as UserMessage });
    }
    if (role === 'user' || role === 'assistant' || role === 'toolResult') previous = role;
  });
  return plan;
}
