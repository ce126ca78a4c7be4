import type { ModelEvent, Provider } from '@agent-core/core';
import { deltaText, finalAnswer, modelLatency, replyFor, type Scenario, toolName } from '../scenario.js';

/**
 * The scripted model for the ReAct orchestrator: the same replies written in
 * the ReAct text protocol. On tool turns the deltas are the thought; on the
 * last turn they begin the final answer, so the answer matches the other contenders'.
 *
 * It streams exactly `scenario.deltas` deltas per turn, as the bare loop's model does: the
 * protocol's words ride on the first and the last delta instead of arriving as extra deltas,
 * and the reply's text is built once per call rather than joined from an array of the deltas.
 * (It used to send two or three more deltas per turn than every other contender, and to build
 * each turn's text by pushing every delta into an array: work the bare loop's model does not do.)
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
      const opening = first !== undefined ? 'Thought: ' : 'Thought: all done.\nFinal Answer: ';
      const action =
        first !== undefined ? `\nAction: ${toolName}\nAction Input: ${JSON.stringify(first.input)}` : '';
      // What follows the streamed deltas: the action, or the rest of the final answer.
      const closing = first !== undefined ? action : finalAnswer;
      // `reply.text` is the deltas joined (and, last, the final answer), as the bare loop's model sends it.
      const text = opening + reply.text + action;
      const deltas = scenario.deltas;
      if (deltas === 1) yield { type: 'text_delta', delta: text };
      else if (deltas > 1) {
        yield { type: 'text_delta', delta: opening + deltaText };
        for (let index = 2; index < deltas; index++) yield { type: 'text_delta', delta: deltaText };
        yield { type: 'text_delta', delta: deltaText + closing };
      }
      yield {
        type: 'done',
        message: { role: 'assistant', content: [{ type: 'text', text }], stopReason: 'end_turn' },
      };
    },
  };
}
