import { agentic } from '@agent-core/orchestrator-agentic';
import type { MockTurn } from '@agent-core/provider-mock';
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { type LoopAdapter, runScenario } from './test-support/loop-harness.js';
import {
  callArbitrary,
  callInput,
  failureArbitrary,
  type ScriptedCall,
  type ScriptedFailure,
  surroundingsArbitrary,
  textArbitrary,
} from './test-support/loop-scenario.js';
import { LoopStatistics } from './test-support/loop-statistics.js';
import { propertySettings, propertyTimeoutMs, report } from './test-support/soak.js';

// The default tool loop under random scripts: replies with text, thinking and tool calls (known,
// unknown, with input their schema refuses), provider failures, tools that answer, throw or hang
// past their timeout, messages queued at random events, an abort at a random event, policies,
// approvals now or later (also from stored JSON), and a small context window. See
// `loop-harness.ts` for the invariants every run keeps.

type AgenticReply =
  | { thinking?: string; text?: string; calls: ScriptedCall[] }
  | { failure: ScriptedFailure };

const replyArbitrary: fc.Arbitrary<AgenticReply> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.record(
      {
        thinking: textArbitrary,
        text: textArbitrary,
        calls: fc.array(callArbitrary, { maxLength: 3 }),
      },
      { requiredKeys: ['calls'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ failure: failureArbitrary }) },
);

function agenticAdapter(toolExecution: 'sequential' | 'parallel'): LoopAdapter<AgenticReply[]> {
  return {
    name: `agentic (${toolExecution})`,
    orchestrator: () => agentic(),
    toolExecution: () => toolExecution,
    minTurns: 1,
    replier(script, nextId) {
      let next = 0;
      return {
        wrapUp: false,
        turn(): MockTurn {
          const reply = this.wrapUp ? undefined : script[next++];
          if (reply === undefined) return { text: 'All done.' };
          if ('failure' in reply) return { text: 'Partial answer', error: reply.failure };
          return {
            ...(reply.thinking === undefined ? {} : { thinking: reply.thinking }),
            ...(reply.text === undefined ? {} : { text: reply.text }),
            toolCalls: reply.calls.map((call) => ({ name: call.tool, input: callInput(call), id: nextId() })),
          };
        },
      };
    },
  };
}

describe.each(['sequential', 'parallel'] as const)('agentic (%s) under random scripts', (toolExecution) => {
  const statistics = new LoopStatistics();
  afterAll(() => report(`agentic (${toolExecution}) property runs`, statistics.toString()));

  it(
    'keeps every loop invariant',
    async () => {
      const adapter = agenticAdapter(toolExecution);
      await fc.assert(
        fc.asyncProperty(
          fc.array(replyArbitrary, { maxLength: 6 }),
          surroundingsArbitrary,
          (script, surroundings) => runScenario(adapter, script, surroundings, statistics),
        ),
        propertySettings(50, 2000),
      );
    },
    propertyTimeoutMs,
  );
});
