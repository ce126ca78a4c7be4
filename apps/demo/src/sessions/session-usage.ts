import type { Usage } from '@agent-core/core';

/** `this session: 120 tokens in, 30 out; $0.0012`: what `/cost` says, in the REPL and in an editor. */
export function sessionUsageText(usage: Usage): string {
  const money = usage.cost === undefined ? 'cost unknown for this model' : `$${usage.cost.toFixed(4)}`;
  return `this session: ${usage.input} tokens in, ${usage.output} out${usage.cacheRead > 0 ? `, ${usage.cacheRead} cached` : ''}; ${money}`;
}
