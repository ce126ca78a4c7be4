import {
  Agent,
  type AgentInputItem,
  type Model,
  type ModelResponse,
  run,
  setTracingDisabled,
  type StreamEvent,
  tool,
  Usage,
} from '@openai/agents';
import { z } from 'zod';
import { packageVersion } from '../package-version.js';
import {
  addResult,
  delay,
  deltaText,
  finalAnswer,
  modelLatency,
  onePerDelay,
  promptText,
  replyFor,
  type RunOutcome,
  type Scenario,
  toolDescription,
  toolName,
} from '../scenario.js';
import type { Framework } from './framework.js';

// Tracing would try to export spans to OpenAI's servers: off, as in any offline test of it.
setTracingDisabled(true);

/** A model like the bare loop's: `getResponse` returns the reply, `getStreamedResponse` streams deltas first. */
function scriptedModel(scenario: Scenario): Model {
  let calls = 0;
  const output = (call: number): ModelResponse['output'] => {
    const reply = replyFor(scenario, call);
    const items: ModelResponse['output'] = [];
    if (reply.text !== '') {
      items.push({
        type: 'message',
        id: `msg_${call}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: reply.text }],
      });
    }
    for (const scripted of reply.calls) {
      items.push({
        type: 'function_call',
        id: `fc_${scripted.id}`,
        callId: scripted.id,
        name: toolName,
        status: 'completed',
        arguments: JSON.stringify(scripted.input),
      });
    }
    return items;
  };
  return {
    async getResponse(): Promise<ModelResponse> {
      const call = calls++;
      await modelLatency(scenario, call);
      return { usage: new Usage(), output: output(call), responseId: `resp_${call}` };
    },
    async *getStreamedResponse(): AsyncIterable<StreamEvent> {
      const call = calls++;
      await modelLatency(scenario, call);
      yield { type: 'response_started' };
      for (let index = 0; index < scenario.deltas; index++) {
        yield { type: 'output_text_delta', delta: deltaText };
      }
      if (call >= scenario.steps) yield { type: 'output_text_delta', delta: finalAnswer };
      yield {
        type: 'response_done',
        response: {
          id: `resp_${call}`,
          usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
          output: output(call) as Extract<StreamEvent, { type: 'response_done' }>['response']['output'],
        },
      };
    },
  };
}

const addTool = onePerDelay((toolDelayMs) =>
  tool({
    name: toolName,
    description: toolDescription,
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: async (input: { a: number; b: number }) => {
      if (toolDelayMs > 0) await delay(toolDelayMs);
      return addResult(input);
    },
  }),
);

function makeAgent(scenario: Scenario) {
  return new Agent({
    name: 'bench',
    instructions: '',
    model: scriptedModel(scenario),
    tools: [addTool(scenario)],
  });
}

/** The OpenAI Agents SDK: `run()`, streamed and iterated when the consumer wants events. */
export function openaiAgentsFramework(): Framework {
  return {
    id: 'openai-agents',
    label: 'OpenAI Agents SDK run()',
    version: `@openai/agents ${packageVersion('@openai/agents')}`,
    streams: true,
    multipleCalls: true,
    async run(scenario: Scenario): Promise<RunOutcome> {
      const agent = makeAgent(scenario);
      const maxTurns = scenario.steps + 2;
      if (scenario.iterate || scenario.deltas > 0) {
        const result = await run(agent, promptText, { stream: true, maxTurns });
        let events = 0;
        for await (const _event of result) events++;
        await result.completed;
        return {
          history: result.history as AgentInputItem[],
          text: String(result.finalOutput),
          events,
          retained: result,
        };
      }
      const result = await run(agent, promptText, { maxTurns });
      return { history: result.history, text: String(result.finalOutput), events: 0, retained: result };
    },
  };
}
