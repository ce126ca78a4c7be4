import { react } from '@agent-core/orchestrator-react';
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

// The ReAct loop under random scripts in its text protocol, well-formed and not: actions (with
// markdown, fences, several actions, an invented observation), final answers, replies that break
// the format, provider failures; with the same surroundings and invariants as the other loops.

type ReactReply =
  | {
      action: ScriptedCall;
      thought: string;
      style: 'plain' | 'markdown' | 'fenced' | 'two_actions' | 'invented_observation';
    }
  | { final: string; thought: string }
  | {
      malformed:
        | 'no_keyword'
        | 'empty'
        | 'bad_json'
        | 'array_input'
        | 'input_without_action'
        | 'empty_answer';
      text: string;
    }
  | { failure: ScriptedFailure };

const replyArbitrary: fc.Arbitrary<ReactReply> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      action: callArbitrary,
      thought: textArbitrary,
      style: fc.constantFrom('plain', 'plain', 'markdown', 'fenced', 'two_actions', 'invented_observation'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ final: textArbitrary, thought: textArbitrary }) },
  {
    weight: 3,
    arbitrary: fc.record({
      malformed: fc.constantFrom(
        'no_keyword',
        'empty',
        'bad_json',
        'array_input',
        'input_without_action',
        'empty_answer',
      ),
      text: textArbitrary,
    }),
  },
  { weight: 1, arbitrary: fc.record({ failure: failureArbitrary }) },
);

/** The reply as a model would write it. */
function replyText(reply: Exclude<ReactReply, { failure: ScriptedFailure }>): string {
  if ('final' in reply) return `Thought: ${reply.thought}\nFinal Answer: ${reply.final}`;
  if ('malformed' in reply) {
    switch (reply.malformed) {
      case 'no_keyword':
        return reply.text;
      case 'empty':
        return '';
      case 'bad_json':
        return `Thought: ${reply.text}\nAction: read_note\nAction Input: {"outcome": "value", size: }`;
      case 'array_input':
        return `Thought: ${reply.text}\nAction: read_note\nAction Input: [1, 2]`;
      case 'input_without_action':
        return `Thought: ${reply.text}\nAction Input: {}`;
      case 'empty_answer':
        return `Thought: ${reply.text}\nFinal Answer:`;
    }
  }
  const input = JSON.stringify(callInput(reply.action));
  const tool = reply.action.tool;
  switch (reply.style) {
    case 'plain':
      return `Thought: ${reply.thought}\nAction: ${tool}\nAction Input: ${input}`;
    case 'markdown':
      return `**Thought:** ${reply.thought}\n**Action:** ${tool}\n**Action Input:** ${input}`;
    case 'fenced':
      return `Thought: ${reply.thought}\nAction: ${tool}\nAction Input:\n\`\`\`json\n${input}\n\`\`\``;
    case 'two_actions':
      return `Thought: ${reply.thought}\nAction: ${tool}\nAction Input: ${input}\nAction: read_note\nAction Input: {"outcome": "value", "size": 1}`;
    case 'invented_observation':
      return `Thought: ${reply.thought}\nAction: ${tool}\nAction Input: ${input}\nObservation: made up\nFinal Answer: too early`;
  }
}

const reactAdapter: LoopAdapter<ReactReply[]> = {
  name: 'react',
  orchestrator: () => react({ maxFormatRetries: 2 }),
  toolExecution: () => 'sequential',
  minTurns: 1,
  replier(script) {
    let next = 0;
    return {
      wrapUp: false,
      turn(): MockTurn {
        const reply = this.wrapUp ? undefined : script[next++];
        if (reply === undefined) return { text: 'Thought: nothing left.\nFinal Answer: All done.' };
        if ('failure' in reply) return { text: 'Thought: I wi', error: reply.failure };
        return { text: replyText(reply) };
      },
    };
  },
};

describe('react under random scripts', () => {
  const statistics = new LoopStatistics();
  afterAll(() => report('react property runs', statistics.toString()));

  it(
    'keeps every loop invariant',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(replyArbitrary, { maxLength: 7 }),
          surroundingsArbitrary,
          (script, surroundings) => runScenario(reactAdapter, script, surroundings, statistics),
        ),
        propertySettings(50, 2000),
      );
    },
    propertyTimeoutMs,
  );
});
