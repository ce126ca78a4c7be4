import type { Usage } from './messages.js';

/** A usage record of zero tokens. */
export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}

/** Adds `delta` into `total` in place. Cost stays undefined until some part reports one. */
export function addUsage(total: Usage, delta: Usage): Usage {
  total.input += delta.input || 0;
  total.output += delta.output || 0;
  total.cacheRead += delta.cacheRead || 0;
  total.cacheWrite += delta.cacheWrite || 0;
  if (delta.cost !== undefined && Number.isFinite(delta.cost)) total.cost = (total.cost ?? 0) + delta.cost;
  return total;
}
