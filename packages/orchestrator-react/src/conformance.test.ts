import type { ConformanceDialect } from '@agent-core/core/testing';
import { orchestratorConformance } from '@agent-core/core/testing';
import { describe, test } from 'vitest';
import { react } from './index.js';

/** The kit's replies in the ReAct text protocol: one Action per reply, or a Final Answer. */
const reactDialect: ConformanceDialect = {
  reply(reply) {
    const thought = `Thought: ${reply.thinking ?? 'Let me work on it.'}`;
    if (reply.kind === 'answer') return { text: `${thought}\nFinal Answer: ${reply.text}` };
    const [call] = reply.calls;
    if (call === undefined) return { text: `${thought}\nFinal Answer: nothing to do` };
    return { text: `${thought}\nAction: ${call.name}\nAction Input: ${JSON.stringify(call.input)}` };
  },
};

// ReAct runs one action per reply and never in parallel.
orchestratorConformance(() => react(), {
  test,
  describe,
  dialect: reactDialect,
  capabilities: { parallel: false },
  runs: process.env.AGENT_CORE_SOAK === '1' ? 3000 : 100,
});
