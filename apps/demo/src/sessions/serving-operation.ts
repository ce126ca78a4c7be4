import { AgentError } from '@agent-core/core';
import type { RunOutcome, RunQueue } from '@agent-core/workers';

/**
 * The session's latest operation when the workers serve it, else undefined:
 * the queue holds no operation of it, or the database has no queue tables (no
 * worker pool was ever set up there). `approve` and the studio ask this to
 * know whether a decision enqueues the resume or runs it in their process.
 */
export async function servingOperation(queue: RunQueue, sessionId: string): Promise<RunOutcome | undefined> {
  try {
    return await queue.latest(sessionId);
  } catch (error) {
    if (AgentError.isInstance(error) && error.code === 'invalid_config') return undefined;
    throw error;
  }
}
