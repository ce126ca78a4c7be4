import type { Usage } from '../messages/messages.js';
import { addUsage } from '../messages/usage.js';

/**
 * The per-agent usage of a run whose subagents reported usage: the run's own
 * agent first, with the total less what the others spent, so the entries add up to `total`.
 */
export function usageBreakdown(
  ownName: string,
  total: Usage,
  others: Readonly<Record<string, Usage>>,
): Record<string, Usage> {
  const own: Usage = { ...total };
  let othersCost: number | undefined;
  for (const usage of Object.values(others)) {
    own.input -= usage.input;
    own.output -= usage.output;
    own.cacheRead -= usage.cacheRead;
    own.cacheWrite -= usage.cacheWrite;
    if (usage.cost !== undefined) othersCost = (othersCost ?? 0) + usage.cost;
  }
  if (own.cost !== undefined && othersCost !== undefined) own.cost = Math.max(0, own.cost - othersCost);
  const breakdown: Record<string, Usage> = { [ownName]: own };
  // A subagent that shares the run's own name adds into the same entry.
  for (const [name, usage] of Object.entries(others)) {
    const entry = breakdown[name];
    breakdown[name] = entry === undefined ? { ...usage } : addUsage(entry, usage);
  }
  return breakdown;
}
