import type { Logger } from '@agent-core/core';
import type { HandOffDecisions } from '@agent-core/studio';
import type { RunQueue } from '@agent-core/workers';
import type { CliConfig } from '../config/load-config.js';
import { openQueue } from '../sessions/open-queue.js';
import type { OpenedStore } from '../sessions/open-store.js';
import { servingOperation } from '../sessions/serving-operation.js';

/** The studio's way to the run queue, and how to close it when the studio stops. */
export interface StudioHandOff {
  handOffDecisions: HandOffDecisions;
  close(): Promise<void>;
}

/**
 * For a `postgres://` store: the studio's decisions of a session the workers
 * serve (as `approve` tells it: an operation of it in the queue) go through
 * `RunQueue.decide`, so a worker resumes the run; any other session is left
 * to the studio. The queue is opened at the first decision, never created.
 * Undefined for other stores, which no worker serves.
 */
export function studioHandOff(
  config: CliConfig,
  store: OpenedStore,
  logger: Logger,
): StudioHandOff | undefined {
  if (store.kind !== 'postgres') return undefined;
  let opening: Promise<RunQueue> | undefined;
  const queue = () =>
    (opening ??= openQueue(config, store, { create: false, logger }).catch((error: unknown) => {
      opening = undefined;
      throw error;
    }));
  return {
    handOffDecisions: async (sessionId, decisions) => {
      const opened = await queue();
      const latest = await servingOperation(opened, sessionId);
      if (latest === undefined) return undefined;
      const resume = await opened.decide(sessionId, decisions);
      return {
        outcome: 'enqueued',
        operationId: resume.operationId,
        state: resume.state,
        // The pause's resume was the latest operation already: these decisions were enqueued before.
        alreadyEnqueued: resume.operationId === latest.operationId,
      };
    },
    async close() {
      const opened = await opening?.catch(() => undefined);
      await opened?.close();
    },
  };
}
