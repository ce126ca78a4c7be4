import { type AgentMessage, newSessionState } from '@agent-core/core';
import type { FileSessionStore } from '../file-session-store.js';
import { answer, toolCall, toolResult, toolRun, user } from './session-events.js';

/**
 * Saves session `id` in `store` with the run `r1` (a tool call, records 1 to 6) in its log and its
 * snapshot saved again at version 1 holding that run; returns the snapshot's messages.
 */
export async function snapshotFirstRun(store: FileSessionStore, id = 's'): Promise<AgentMessage[]> {
  const state = newSessionState({ id });
  await store.save(state, { expectedVersion: 0 });
  await store.append(id, toolRun('r1', 'c1'), { operationId: 'r1' });
  const messages = [user('prompt r1'), toolCall('c1'), toolResult('c1'), answer('done r1')];
  await store.save({ ...state, version: 1, messages, lastSeq: 6 }, { expectedVersion: 1 });
  return messages;
}
