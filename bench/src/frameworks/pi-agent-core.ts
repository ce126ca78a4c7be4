import {
  Agent as PiAgent,
  type AgentContext,
  type AgentEvent,
  type AgentLoopConfig,
  type AgentMessage,
  type AgentTool,
  agentLoop,
  runAgentLoop,
  type StreamFn,
} from '@mariozechner/pi-agent-core';
import {
  type AssistantMessage,
  type AssistantMessageEventStream,
  createAssistantMessageEventStream,
  type Model,
  Type,
} from '@mariozechner/pi-ai';
import { packageVersion } from '../package-version.js';
import {
  addResult,
  delay,
  deltaText,
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

const model: Model<'scripted'> = {
  id: 'scripted',
  name: 'scripted',
  api: 'scripted',
  provider: 'scripted',
  baseUrl: 'http://127.0.0.1',
  reasoning: false,
  input: ['text'],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1_000_000,
  maxTokens: 100_000,
};

const addParameters = Type.Object({ a: Type.Number(), b: Type.Number() });

function usage(): AssistantMessage['usage'] {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/** A stream function like the bare loop's model: the scripted deltas, then the whole message. */
function scriptedStream(scenario: Scenario): StreamFn {
  let calls = 0;
  return () => {
    const stream = createAssistantMessageEventStream();
    void produce(stream, scenario, calls++);
    return stream;
  };
}

async function produce(stream: AssistantMessageEventStream, scenario: Scenario, call: number): Promise<void> {
  await modelLatency(scenario, call);
  const reply = replyFor(scenario, call);
  const message: AssistantMessage = {
    role: 'assistant',
    content: [],
    api: 'scripted',
    provider: 'scripted',
    model: 'scripted',
    usage: usage(),
    stopReason: reply.calls.length > 0 ? 'toolUse' : 'stop',
    timestamp: Date.now(),
  };
  if (scenario.deltas > 0) {
    const block = { type: 'text' as const, text: '' };
    message.content.push(block);
    stream.push({ type: 'start', partial: message });
    stream.push({ type: 'text_start', contentIndex: 0, partial: message });
    for (let index = 0; index < scenario.deltas; index++) {
      block.text += deltaText;
      stream.push({ type: 'text_delta', contentIndex: 0, delta: deltaText, partial: message });
    }
    block.text = reply.text;
    stream.push({ type: 'text_end', contentIndex: 0, content: reply.text, partial: message });
  } else if (reply.text !== '') {
    message.content.push({ type: 'text', text: reply.text });
  }
  for (const scripted of reply.calls) {
    message.content.push({ type: 'toolCall', id: scripted.id, name: toolName, arguments: scripted.input });
  }
  stream.push({ type: 'done', reason: reply.calls.length > 0 ? 'toolUse' : 'stop', message });
}

const addTool = onePerDelay(
  (toolDelayMs): AgentTool<typeof addParameters> => ({
    name: toolName,
    label: toolName,
    description: toolDescription,
    parameters: addParameters,
    async execute(_id, params) {
      if (toolDelayMs > 0) await delay(toolDelayMs);
      return { content: [{ type: 'text', text: addResult(params) }], details: undefined };
    },
  }),
);

function finalText(messages: readonly AgentMessage[]): string {
  const last = messages[messages.length - 1] as AssistantMessage;
  return last.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

const convertToLlm = (messages: AgentMessage[]) => messages;

/** pi-agent-core's pure loop function (`runAgentLoop`, or `agentLoop` when the consumer iterates). */
export function piLoopFramework(): Framework {
  return {
    id: 'pi-loop',
    label: 'pi-agent-core runAgentLoop',
    version: `@mariozechner/pi-agent-core ${packageVersion('@mariozechner/pi-agent-core')}`,
    streams: true,
    multipleCalls: true,
    async run(scenario: Scenario): Promise<RunOutcome> {
      const context: AgentContext = { systemPrompt: '', messages: [], tools: [addTool(scenario)] };
      const config: AgentLoopConfig = {
        model,
        convertToLlm,
        toolExecution: scenario.callsPerStep > 1 ? 'parallel' : 'sequential',
      };
      const prompt: AgentMessage = { role: 'user', content: promptText, timestamp: Date.now() };
      const streamFn = scriptedStream(scenario);
      let events = 0;
      let messages: AgentMessage[];
      if (scenario.iterate) {
        const stream = agentLoop([prompt], context, config, undefined, streamFn);
        for await (const _event of stream) events++;
        messages = await stream.result();
      } else {
        messages = await runAgentLoop([prompt], context, config, () => {}, undefined, streamFn);
      }
      return { history: messages, text: finalText(messages), events, retained: messages };
    },
  };
}

/** pi-agent-core's stateful `Agent` class. */
export function piAgentFramework(): Framework {
  return {
    id: 'pi-agent',
    label: 'pi-agent-core Agent',
    version: `@mariozechner/pi-agent-core ${packageVersion('@mariozechner/pi-agent-core')}`,
    streams: true,
    multipleCalls: true,
    async run(scenario: Scenario): Promise<RunOutcome> {
      const agent = new PiAgent({
        initialState: { systemPrompt: '', model, tools: [addTool(scenario)] },
        streamFn: scriptedStream(scenario),
        toolExecution: scenario.callsPerStep > 1 ? 'parallel' : 'sequential',
      });
      let events = 0;
      const unsubscribe = scenario.iterate
        ? agent.subscribe((_event: AgentEvent) => {
            events++;
          })
        : undefined;
      await agent.prompt(promptText);
      unsubscribe?.();
      const messages = agent.state.messages;
      return { history: messages, text: finalText(messages), events, retained: agent };
    },
  };
}
