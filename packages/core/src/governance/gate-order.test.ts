import { describe, expect, it } from 'vitest';
import type { ToolResultMessage } from '../index.js';
import { callsDone, inlineProvider, textDone } from '../test-support/inline-provider.js';
import { countedTools } from './test-support/governed-tools.js';
import { stepAgent } from '../test-support/step-agent.js';

type Stage = 'hook' | 'guard' | 'policy' | 'approver' | 'tool';

/**
 * The order in which the gate consults each part, as the README's Governance
 * section documents it: each row lets one stage refuse and lists the stages
 * that were consulted, so a stage later in the order is never reached. The
 * intent check has no callback: its row shows the hook ran and the guard did not.
 */
describe('the gate consults hooks, intent, guard, policy and approver in order', () => {
  it.each<[Stage | 'intent' | 'none', Stage[], RegExp]>([
    ['none', ['hook', 'guard', 'policy', 'approver', 'tool'], /^contents of x$/],
    ['hook', ['hook'], /was blocked: hook says no/],
    ['intent', ['hook'], /no intent was declared/],
    ['guard', ['hook', 'guard'], /refused by the guard: guard says no/],
    ['policy', ['hook', 'guard', 'policy'], /was denied: policy says no/],
    ['approver', ['hook', 'guard', 'policy', 'approver'], /denied by the user: approver says no/],
  ])('refused by %s: consulted %j', async (refuser, consulted, resultText) => {
    const { runs, tools } = countedTools();
    const seen: Stage[] = [];
    const intent = refuser === 'intent' ? '' : '<intent tool="read_file" risk="read">check x</intent>';
    const agent = stepAgent({
      provider: inlineProvider([
        [callsDone([{ id: 'c1', name: 'read_file', input: { path: 'x' } }], `${intent}reading`)],
        [textDone('done')],
      ]),
      tools,
      intentRequired: true,
      hooks: {
        beforeToolCall: () => {
          seen.push('hook');
          return refuser === 'hook' ? { block: 'hook says no' } : undefined;
        },
      },
      guard: {
        name: 'recording',
        check: (observation) => {
          if (observation.kind === 'model_call') return 'ok';
          seen.push('guard');
          return refuser === 'guard' ? { action: 'block', reason: 'guard says no' } : 'ok';
        },
      },
      policy: () => {
        seen.push('policy');
        return refuser === 'policy' ? { decision: 'deny', reason: 'policy says no' } : 'ask';
      },
      approve: () => {
        seen.push('approver');
        return refuser === 'approver' ? { decision: 'deny', reason: 'approver says no' } : 'allow';
      },
    });
    const result = await agent.prompt('go').result();
    if (runs.read_file === 1) seen.push('tool');
    expect(seen).toEqual(consulted);
    const toolResult = result.messages.find((message) => message.role === 'toolResult') as ToolResultMessage;
    expect(toolResult.content).toMatch(resultText);
  });
});
