import type { AgentMessage } from '../messages/messages.js';
import type { RunContext } from './run-context.js';

/**
 * Moves the messages of a steering or follow-up queue (and those its source
 * gives) into the run's history, each with its event. Taken and appended in
 * one synchronous step, so a message is always in exactly one place.
 */
export function drainQueue(
  context: RunContext,
  queue: AgentMessage[],
  source: (() => AgentMessage[]) | undefined,
  type: 'steering' | 'follow_up',
): AgentMessage[] {
  // A run that ended takes nothing more: the queues belong to the agent's next run.
  if (context.state.ended) return [];
  const fromSource = source?.();
  if (queue.length === 0 && (fromSource === undefined || fromSource.length === 0)) return [];
  // Taken from the queue and appended in one synchronous step: a message is always in exactly one place.
  const messages = queue.splice(0, queue.length);
  if (fromSource !== undefined) messages.push(...fromSource);
  const state = context.state;
  for (const message of messages) {
    // Appending first answers any unanswered calls as skipped, so the events follow the history's order.
    context.append(message);
    context.deliver({ type, runId: state.runId, turn: state.turn, seq: state.seq++, message });
  }
  return messages;
}
