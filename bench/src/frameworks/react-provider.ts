import type { ModelEvent, Provider } from '@agent-core/core';
import { deltaText, finalAnswer, modelLatency, replyFor, type Scenario, toolName } from '../scenario.js';

/**
 * The scripted model for the ReAct orchestrator: the same replies written in
 * the ReAct text protocol. On tool turns the deltas are the thought; on the
 * last turn they begin the final answer, so the answer matches the other contenders'.
 */
export function scriptedReactProvider(scenario: Scenario): Provider {
  let calls = 0;
  return {
    name: 'scripted',
    async *stream(): AsyncGenerator<ModelEvent> {
      const call = calls++;
      await modelLatency(scenario, call);
      const reply = replyFor(scenario, call);
      const first = reply.calls[0];
      const pieces: string[] = [];
      if (first !== undefined) {
        pieces.push('Thought: ');
        for (let index = 0; index < scenario.deltas; index++) pieces.push(deltaText);
        pieces.push(`\nAction: ${toolName}\nAction Input: ${JSON.stringify(first.input)}`);
      } else {
        pieces.push('Thought: all done.\nFinal Answer: ');
        for (let index = 0; index < scenario.deltas; index++) pieces.push(deltaText);
        pieces.push(finalAnswer);
      }
      if (scenario.deltas > 0) for (const piece of pieces) yield { type: 'text_delta', delta: piece };
      yield {
        type: 'done',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: pieces.join('') }],
          stopReason: 'end_turn',
        },
      };
    },
  };
}
