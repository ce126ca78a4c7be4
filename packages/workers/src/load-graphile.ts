import type { Logger } from '@agent-core/core';
import type * as GraphileWorker from 'graphile-worker';

/** graphile-worker's module. */
export type Graphile = typeof GraphileWorker;

let loading: Promise<Graphile> | undefined;

/**
 * Imports graphile-worker on first use: it searches the working folder for a
 * configuration file when loaded, which an app that only imports this package
 * should not pay for until it uses the queue.
 */
export function loadGraphile(): Promise<Graphile> {
  loading ??= import('graphile-worker').then(
    (module) => ((module as { default?: Graphile }).default ?? module) as Graphile,
  );
  return loading;
}

/** A graphile-worker logger writing to core's `Logger`: its errors and warnings as such, the rest as debug. */
export function graphileLogger(graphile: Graphile, logger?: Logger): GraphileWorker.Logger {
  return new graphile.Logger((scope) => (level, message) => {
    if (logger === undefined) return;
    const fields = { engine: 'graphile-worker', label: scope.label, workerId: scope.workerId };
    if (level === 'error') logger.error(message, fields);
    else if (level === 'warning') logger.warn(message, fields);
    else logger.debug(message, fields);
  });
}
