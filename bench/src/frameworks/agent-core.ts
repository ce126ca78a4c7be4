import {
  Agent,
  type AgentOptions,
  type AssistantMessage,
  type ContextWindowOptions,
  defineTool,
  type ModelEvent,
  type Orchestrator,
  type Provider,
} from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';
import { z } from 'zod';
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

/** Which provider feeds the agent: the bench's own few-line provider, or `@agent-core/provider-mock`. */
export type CoreProviderKind = 'scripted' | 'mock';

/** Options of one agent-core contender. */
export interface CoreVariant {
  id: string;
  label: string;
  orchestrator: () => Orchestrator;
  provider: CoreProviderKind;
  /** Whether one turn can ask for several tool calls (default true). */
  multipleCalls?: boolean;
  /** Iterate the run's events even when the scenario only awaits the result. */
  iterateAlways?: boolean;
  /** A context window for the agent; none by default. */
  contextWindow?: ContextWindowOptions;
  /** Builds the scripted provider; the default answers with native tool calls. */
  scriptedProvider?: (scenario: Scenario) => Provider;
  /** Attaches something to each fresh agent before its run (an observability adapter, say). */
  attach?: (agent: Agent) => void;
  /** More agent options (a policy and an approver, say). */
  agentOptions?: Partial<AgentOptions>;
}

/**
 * A provider as small as the bare loop's model: each call yields the scripted
 * deltas, then `done` with the whole message. No recording, no chunking.
 */
export function scriptedProvider(scenario: Scenario): Provider {
  let calls = 0;
  return {
    name: 'scripted',
    async *stream(): AsyncGenerator<ModelEvent> {
      const call = calls++;
      await modelLatency(scenario, call);
      const reply = replyFor(scenario, call);
      for (let index = 0; index < scenario.deltas; index++) yield { type: 'text_delta', delta: deltaText };
      // Built at its final size, as the bare loop's model builds its message.
      const content: AssistantMessage['content'] = reply.calls.map((scripted) => ({
        type: 'toolCall' as const,
        id: scripted.id,
        name: toolName,
        input: scripted.input,
      }));
      if (reply.text !== '') content.unshift({ type: 'text', text: reply.text });
      yield {
        type: 'done',
        message: {
          role: 'assistant',
          content,
          stopReason: reply.calls.length > 0 ? 'tool_use' : 'end_turn',
        },
      };
    },
  };
}

function mockProvider(scenario: Scenario): Provider {
  return mock({
    record: false,
    // Deltas of exactly one `deltaText` each, so a streamed turn is the same 50 deltas (plus the final answer's).
    chunkSize: scenario.deltas > 0 ? deltaText.length : 0,
    turns: (_request, call) => {
      const reply = replyFor(scenario, call);
      const latency = scenario.modelLatency?.(call);
      if (latency !== undefined) {
        // provider-mock waits inside its own stream: the reply's arrival is taken as its due time.
        const start = performance.now();
        scenario.onModelCall?.(start, start + latency, start + latency);
      }
      return {
        text: reply.text,
        toolCalls: reply.calls.map((scripted) => ({
          id: scripted.id,
          name: toolName,
          input: scripted.input,
        })),
        ...(latency === undefined ? {} : { latencyMs: latency }),
      };
    },
  });
}

/** The scripted `add` tool, one per tool delay. */
export const addTool = onePerDelay((toolDelayMs) =>
  defineTool({
    name: toolName,
    description: toolDescription,
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute:
      toolDelayMs > 0
        ? (input) => delay(toolDelayMs).then(() => addResult(input))
        : (input) => addResult(input),
  }),
);

/** An agent-core contender: a fresh `Agent` per run. */
export function coreFramework(variant: CoreVariant): Framework {
  return {
    id: variant.id,
    label: variant.label,
    version: `@agent-core/core ${packageVersion('@agent-core/core')}`,
    streams: true,
    multipleCalls: variant.multipleCalls ?? true,
    async run(scenario: Scenario): Promise<RunOutcome> {
      const provider =
        variant.provider === 'mock'
          ? mockProvider(scenario)
          : (variant.scriptedProvider ?? scriptedProvider)(scenario);
      const agent = new Agent({
        provider,
        model: 'scripted',
        tools: [addTool(scenario)],
        orchestrator: variant.orchestrator(),
        limits: { maxTurns: scenario.steps + 1 },
        ...(variant.contextWindow === undefined ? {} : { contextWindow: variant.contextWindow }),
        ...variant.agentOptions,
      });
      variant.attach?.(agent);
      const run = agent.prompt(promptText);
      let events = 0;
      if (scenario.iterate || variant.iterateAlways === true) {
        for await (const _event of run) events++;
      }
      const result = await run.result();
      if (result.terminateReason !== 'completed') {
        throw new Error(
          `${variant.id}: the run ended with ${result.terminateReason}: ${result.error?.message}`,
        );
      }
      return { history: result.messages, text: result.text, events, retained: { agent, result } };
    },
  };
}

/** The agent-core contenders that need only published packages: agentic, sequential and parallel. */
export function coreFrameworks(): Framework[] {
  return [
    coreFramework({
      id: 'core-seq',
      label: 'agent-core agentic sequential',
      orchestrator: () => agentic({ toolExecution: 'sequential' }),
      provider: 'scripted',
    }),
    coreFramework({
      id: 'core-seq-events',
      label: 'agent-core agentic sequential, events iterated',
      orchestrator: () => agentic({ toolExecution: 'sequential' }),
      provider: 'scripted',
      iterateAlways: true,
    }),
    coreFramework({
      id: 'core-par',
      label: 'agent-core agentic parallel',
      orchestrator: () => agentic({ toolExecution: 'parallel' }),
      provider: 'scripted',
    }),
    coreFramework({
      id: 'core-par-events',
      label: 'agent-core agentic parallel, events iterated',
      orchestrator: () => agentic({ toolExecution: 'parallel' }),
      provider: 'scripted',
      iterateAlways: true,
    }),
    coreFramework({
      id: 'core-seq-window',
      label: 'agent-core agentic sequential, context window',
      orchestrator: () => agentic({ toolExecution: 'sequential' }),
      provider: 'scripted',
      // About 8 tokens a step: N = 10 never compacts, N = 1,000 compacts every 50 steps or so.
      contextWindow: { budgetTokens: 2_000 },
    }),
    coreFramework({
      id: 'core-mock',
      label: 'agent-core agentic sequential, provider-mock',
      orchestrator: () => agentic({ toolExecution: 'sequential' }),
      provider: 'mock',
    }),
  ];
}
