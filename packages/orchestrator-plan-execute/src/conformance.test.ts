import type { ModelRequest } from '@agent-core/core';
import type { ConformanceDialect } from '@agent-core/core/testing';
import { orchestratorConformance } from '@agent-core/core/testing';
import { describe, test } from 'vitest';
import { planExecute, stepFailedMarker } from './index.js';

function lastUserText(request: ModelRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (message?.role === 'user') return typeof message.content === 'string' ? message.content : '';
  }
  return '';
}

const planRequest = /^Before doing anything|^That plan could not be used|Write a new plan/m;

/**
 * Plans and summaries are plan-execute's own: the dialect answers them (one or
 * two steps in turn, and every third plan once as prose, which is sent back),
 * so the kit's scripts drive the steps, where tools run. A step answer with
 * "beta" in it reports the step failed, which re-plans. Everything follows
 * from the request, so a scenario replays the same way.
 */
function planDialect(): ConformanceDialect {
  return {
    ownReply(request) {
      const text = lastUserText(request);
      if (text.startsWith('All steps are done')) return { text: 'Here is what the steps found.' };
      if (!planRequest.test(text)) return undefined;
      const plans = request.messages.filter(
        (message) =>
          message.role === 'user' && typeof message.content === 'string' && planRequest.test(message.content),
      ).length;
      if (plans % 3 === 0 && !text.startsWith('That plan')) return { text: 'I would rather just start.' };
      const steps = plans % 2 === 0 ? ['look', 'write'] : ['work'];
      return {
        text: JSON.stringify({ steps: steps.map((title) => ({ title, instruction: `Do: ${title}` })) }),
      };
    },
    reply(reply) {
      if (reply.kind === 'answer' && reply.text.includes('beta'))
        return { text: `${stepFailedMarker} ${reply.text}` };
      return {
        ...(reply.text === undefined ? {} : { text: reply.text }),
        ...(reply.thinking === undefined ? {} : { thinking: reply.thinking }),
        ...(reply.kind === 'tools' ? { toolCalls: reply.calls } : {}),
      };
    },
  };
}

// A plan, a step and the summary: three model calls at least.
orchestratorConformance(() => planExecute({ maxReplans: 1, maxStepTurns: 3 }), {
  test,
  describe,
  dialect: planDialect(),
  minTurns: 3,
  runs: process.env.AGENT_CORE_SOAK === '1' ? 3000 : 100,
});
