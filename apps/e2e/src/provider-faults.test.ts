import {
  Agent,
  type AgentEvent,
  type AgentMessage,
  defineTool,
  historyProblems,
  type ProviderErrorKind,
} from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  allFaultCases,
  describeCase,
  type FaultCase,
  faulted,
  finalText,
  replyEvents,
  sampledFaultCases,
} from './test-support/fault-matrix.js';
import { startFaultServer } from './test-support/fault-server.js';
import { soak } from '@agent-core/test-support';
import { type FaultKind, wireDialects } from './test-support/wire-dialects.js';

// Faults at every point of a streamed reply, through the real SDKs against a local server that
// speaks each API's wire format: before the headers, after them, after each SSE event; a dropped
// connection, a stall past the idle timeout, a 5xx (an error event once the stream has begun), an
// overloaded answer, a malformed event. With retries the run recovers; without, it settles with
// the fault's kind. Either way the history stays valid, no tool runs twice, and a message queued
// before the fault is in the history or still queued. `pnpm test:soak` runs the whole matrix.

/** The kind of error a fault must end a run with when it is not retried. */
function expectedKind(kind: FaultKind, point: number): ProviderErrorKind {
  if (kind === 'http_5xx') return 'server';
  if (kind === 'overloaded') return 'overloaded';
  // A 200 page that is not an event stream reads as a stream that ended before its end.
  if (kind === 'malformed') return point < 0 ? 'network' : 'malformed';
  return 'network';
}

/** How many places hold this exact message: the history and both queues. */
function placesOf(agent: Agent, message: AgentMessage): number {
  const everywhere = [...agent.messages, ...agent.queued.steering, ...agent.queued.followUp];
  return everywhere.filter((candidate) => candidate === message).length;
}

const tally = new Map<string, { tried: number; survived: number }>();

async function runCase(fault: FaultCase): Promise<void> {
  const { dialect, kind, point, mode } = fault;
  const where = describeCase(fault);
  const faultedRequest = fault.reply === 'tool_call' ? 0 : 1;
  const server = await startFaultServer((request, index) => {
    const events = dialect.hasToolResult(request.body)
      ? dialect.textReply(finalText)
      : dialect.toolReply(`call_${index}`);
    if (index === faultedRequest) return faulted(dialect, events, point, kind);
    return { type: 'stream', events, ending: 'end' };
  });
  try {
    const executions = new Map<string, number>();
    const calculator = defineTool({
      name: 'calculator',
      description: 'Evaluates a product such as 15*3.',
      parameters: z.object({ expression: z.string() }),
      execute: (_input, context) => {
        executions.set(context.toolCallId, (executions.get(context.toolCallId) ?? 0) + 1);
        return '45';
      },
    });
    const finished = dialect.finishedBefore(kind, point, replyEvents(dialect, fault.reply));
    const agent = new Agent({
      provider: dialect.provider(server.origin),
      model: dialect.model,
      tools: [calculator],
      orchestrator: agentic(),
      retry: { maxRetries: mode === 'recover' ? 3 : 0, baseDelayMs: 1, maxDelayMs: 5 },
      // Small only where a stall cuts the reply short: elsewhere nothing waits on the clock, and a
      // stall after a whole reply must end without it (the provider stops at the last event). Not
      // smaller: the cases run at once, and a loaded machine can keep a healthy stream quiet for 300 ms.
      ...(kind === 'stall' && !finished ? { streamIdleTimeoutMs: 1_000 } : {}),
    });
    const followUp: AgentMessage = { role: 'user', content: 'And show your work.' };
    const steering: AgentMessage = { role: 'user', content: 'Use the calculator only once.' };
    let followUpQueued = false;
    let steeringQueued = false;
    const events: AgentEvent[] = [];
    agent.subscribe((event) => {
      events.push(event);
      if (event.type === 'message_start' && !followUpQueued) {
        followUpQueued = true;
        agent.followUp(followUp);
      }
      if (event.type === 'tool_call_end' && !steeringQueued) {
        steeringQueued = true;
        agent.steer(steering);
      }
    });

    const result = await agent.prompt('What is 15*3?').result();

    if (mode === 'recover' || finished) {
      expect(result.terminateReason, `${where}: ${result.error?.message}`).toBe('completed');
      expect(result.text, where).toBe(finalText);
    } else {
      expect(result.terminateReason, where).toBe('error');
      expect(result.error?.code, `${where}: ${result.error?.message}`).toBe(
        `provider_${expectedKind(kind, point)}`,
      );
    }
    const retries = events.filter((event) => event.type === 'retry');
    if (mode === 'recover' && !finished) {
      expect(retries.length, where).toBeGreaterThan(0);
      expect(retries[0]?.error.kind, where).toBe(expectedKind(kind, point));
    }
    if (finished) expect(retries, where).toEqual([]);

    expect(events[0]?.type, where).toBe('agent_start');
    expect(events.at(-1)?.type, where).toBe('agent_end');
    for (let index = 1; index < events.length; index++) {
      expect((events[index] as AgentEvent).seq, where).toBeGreaterThan((events[index - 1] as AgentEvent).seq);
    }
    expect(historyProblems(result.messages), where).toEqual([]);
    for (const request of server.requests) expect(dialect.requestProblems(request.body), where).toEqual([]);
    for (const [id, count] of executions) expect(count, `${where}: runs of ${id}`).toBe(1);
    expect(placesOf(agent, followUp), where).toBe(followUpQueued ? 1 : 0);
    expect(placesOf(agent, steering), where).toBe(steeringQueued ? 1 : 0);
  } finally {
    await server.close();
  }
}

for (const dialect of wireDialects) {
  const cases = soak ? allFaultCases(dialect) : sampledFaultCases(dialect);
  describe.concurrent(`provider faults through the real SDK: ${dialect.name}`, () => {
    it.each(cases.map((fault) => [describeCase(fault), fault] as const))('%s', async (_, fault) => {
      const counts = tally.get(dialect.name) ?? { tried: 0, survived: 0 };
      tally.set(dialect.name, counts);
      counts.tried++;
      await runCase(fault);
      counts.survived++;
    });
  });
}

afterAll(() => {
  const lines = [...tally].map(([name, counts]) => `${name}: ${counts.survived} of ${counts.tried} survived`);
  // The figures for RELIABILITY.md; printed in the soak run, where the whole matrix runs.
  if (soak) console.log(`provider fault points (${soak ? 'soak' : 'default'} run)\n${lines.join('\n')}`);
});
