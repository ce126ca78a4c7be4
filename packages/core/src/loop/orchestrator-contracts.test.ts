import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  type AgentMessage,
  type AgentOptions,
  ContractError,
  defineTool,
  historyProblems,
  type Message,
  type Orchestrator,
  type OrchestratorContext,
  toolCallsOf,
} from '../index.js';
import { inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { reply } from '../test-support/replies.js';

// Each mistake a custom orchestrator makes by accident, made on purpose: the context refuses it
// with a typed error naming the rule, before anything reaches the model or a tool, and the run
// ends with a valid history.

function countingTool() {
  const counter = { runs: 0 };
  const tool = defineTool({
    name: 'count',
    description: 'counts its runs',
    parameters: z.object({}),
    execute: () => String(++counter.runs),
  });
  return { tool, counter };
}

/** An agent with `orchestrator`, one counting tool and the scripted replies; its events are kept. */
function agentWith(
  orchestrator: Orchestrator,
  replies: Parameters<typeof inlineProvider>[0],
  options: Partial<AgentOptions> = {},
) {
  const { tool, counter } = countingTool();
  const provider = inlineProvider(replies);
  const agent = new Agent({ provider, model: 'm', tools: [tool], orchestrator, ...options });
  const events: AgentEvent[] = [];
  agent.subscribe((event) => events.push(event));
  return { agent, provider, counter, events };
}

/** An orchestrator whose first model call asks for tools and whose `then` does what a test wants with the context. */
function afterFirstCall(
  name: string,
  then: (ctx: OrchestratorContext, calls: ReturnType<typeof toolCallsOf>) => Promise<unknown>,
): Orchestrator {
  return {
    name,
    async run(ctx) {
      const first = await ctx.callModel();
      if (!first.ok) return { reason: first.reason, error: first.error };
      await then(ctx, toolCallsOf(first.message));
      return { reason: 'completed' };
    },
  };
}

function turnsBalanced(events: readonly AgentEvent[]): boolean {
  let open = false;
  for (const event of events) {
    if (event.type === 'turn_start') {
      if (open) return false;
      open = true;
    } else if (event.type === 'turn_end') {
      if (!open) return false;
      open = false;
    }
  }
  return !open;
}

describe('the orchestrator context refuses what would break the history', () => {
  it('callModel with a tool call unanswered: ContractError unanswered_tool_calls, the model never sent that history', async () => {
    const orchestrator = afterFirstCall('forgets-tools', async (ctx) => {
      await ctx.callModel();
    });
    const { agent, provider, counter } = agentWith(orchestrator, [
      [toolDone('count', {})],
      [textDone('never')],
    ]);
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('error');
    expect(ContractError.isInstance(result.error)).toBe(true);
    expect(result.error?.code).toBe('unanswered_tool_calls');
    expect(result.error?.message).toMatch(/'call_count' \(count\).*ctx\.executeTool\(\)/);
    expect(provider.requests).toHaveLength(1);
    expect(counter.runs).toBe(0);
    expect(historyProblems(agent.messages)).toEqual([]);
  });

  it('callModel with messages of its own ending in an unanswered call is refused too', async () => {
    const orchestrator: Orchestrator = {
      name: 'own-messages',
      async run(ctx) {
        const messages: Message[] = [
          ...ctx.modelMessages(),
          {
            role: 'assistant',
            content: [{ type: 'toolCall', id: 'x', name: 'count', input: {} }],
            stopReason: 'tool_use',
          },
        ];
        await ctx.callModel({ messages });
        return { reason: 'completed' };
      },
    };
    const { agent, provider } = agentWith(orchestrator, [[textDone('never')]]);
    const result = await agent.prompt('go').result();
    expect(result.error?.code).toBe('unanswered_tool_calls');
    expect(provider.requests).toHaveLength(0);
  });

  it('executeTools with one call three times: refused before the approver is asked or the tool runs', async () => {
    let asked = 0;
    const orchestrator = afterFirstCall('triples', async (ctx, calls) => {
      const call = calls[0] as NonNullable<(typeof calls)[0]>;
      await ctx.executeTools([call, call, call]);
    });
    const { agent, counter } = agentWith(orchestrator, [[toolDone('count', {})]], {
      policy: { tools: { count: 'ask' }, otherwise: 'allow' },
      approve: () => {
        asked++;
        return 'allow';
      },
    });
    const result = await agent.prompt('go').result();
    expect(result.error?.code).toBe('duplicate_tool_call_in_batch');
    expect(asked).toBe(0);
    expect(counter.runs).toBe(0);
    // The call is answered when the run ends: the history stays valid, no record of a run that never was.
    expect(result.toolCalls.map((call) => call.isError)).toEqual([true]);
    expect(historyProblems(agent.messages)).toEqual([]);
  });

  it('a second executeTool for one call, awaited or at once, is refused and the tool runs once', async () => {
    const codes: string[] = [];
    const orchestrator = afterFirstCall('twice', async (ctx, calls) => {
      const call = calls[0] as NonNullable<(typeof calls)[0]>;
      const first = ctx.executeTool(call);
      await ctx.executeTool(call).catch((error: ContractError) => codes.push(error.code));
      await first;
      await ctx.executeTool(call).catch((error: ContractError) => codes.push(error.code));
    });
    const { agent, counter } = agentWith(orchestrator, [[toolDone('count', {})]]);
    await agent.prompt('go').result();
    expect(codes).toEqual(['tool_call_not_pending', 'tool_call_not_pending']);
    expect(counter.runs).toBe(1);
  });

  it('executeTool with input other than the history shows is refused: tool_call_changed', async () => {
    const orchestrator = afterFirstCall('changes-input', async (ctx, calls) => {
      const call = calls[0] as NonNullable<(typeof calls)[0]>;
      await ctx.executeTool({ ...call, input: { sneaky: true } });
    });
    const { agent, counter } = agentWith(orchestrator, [[toolDone('count', {})]]);
    const result = await agent.prompt('go').result();
    expect(result.error?.code).toBe('tool_call_changed');
    expect(counter.runs).toBe(0);
  });

  it("a tool's execute from ctx.tools throws tool_outside_gate; the real tool never runs", async () => {
    let thrown: unknown;
    const orchestrator: Orchestrator = {
      name: 'runs-tools-itself',
      async run(ctx) {
        const tool = ctx.tools[0] as unknown as { execute(input: unknown, context: unknown): unknown };
        try {
          await tool.execute({}, {});
        } catch (error) {
          thrown = error;
        }
        return { reason: 'completed' };
      },
    };
    const { agent, counter } = agentWith(orchestrator, []);
    await agent.prompt('go').result();
    expect(ContractError.isInstance(thrown) && thrown.rule).toBe('tool_outside_gate');
    expect(counter.runs).toBe(0);
  });

  it('a change to ctx.messages or ctx.modelMessages() never reaches the history: the next model call is refused, the copy put back', async () => {
    const seen: unknown[] = [];
    const orchestrator: Orchestrator = {
      name: 'meddles',
      async run(ctx) {
        (ctx.messages as AgentMessage[]).push({ role: 'user', content: 'sneaked in' });
        seen.push(await ctx.callModel().catch((error: ContractError) => error.rule));
        seen.push(ctx.messages.length);
        (ctx.modelMessages() as Message[]).reverse();
        (ctx.modelMessages() as Message[]).push({ role: 'user', content: 'again' });
        seen.push(await ctx.callModel().catch((error: ContractError) => error.rule));
        try {
          ctx.emit({ type: 'turn_start', spanId: 'a', parentSpanId: 'b' });
        } catch (error) {
          seen.push((error as ContractError).rule);
        }
        return { reason: 'completed' };
      },
    };
    const { agent } = agentWith(orchestrator, []);
    const result = await agent.prompt('go').result();
    expect(seen).toEqual(['history_read_only', 1, 'history_read_only', 'core_event']);
    expect(result.terminateReason).toBe('completed');
    expect(agent.messages).toEqual([{ role: 'user', content: 'go' }]);
  });

  it('an orchestrator that pushes its answer onto ctx.messages instead of appending it ends with history_read_only', async () => {
    const orchestrator: Orchestrator = {
      name: 'pushes',
      async run(ctx) {
        (ctx.messages as AgentMessage[]).push({
          role: 'assistant',
          content: [{ type: 'text', text: 'done' }],
          stopReason: 'end_turn',
        });
        return { reason: 'completed' };
      },
    };
    const { agent } = agentWith(orchestrator, []);
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('error');
    expect((result.error as ContractError).rule).toBe('history_read_only');
    expect(result.error?.message).toMatch(/before run\(\) returned.*ctx\.append\(\)/s);
    expect(agent.messages).toEqual([{ role: 'user', content: 'go' }]);
  });
});

describe('every model call is a turn', () => {
  it('an orchestrator that never calls nextTurn gets maxTurns model calls, and the result counts them', async () => {
    const orchestrator: Orchestrator = {
      name: 'no-turns',
      async run(ctx) {
        for (let call = 0; call < 10; call++) {
          const response = await ctx.callModel();
          if (!response.ok) return { reason: response.reason, error: response.error };
        }
        return { reason: 'completed' };
      },
    };
    const replies = Array.from({ length: 10 }, (_, index) => [textDone(`answer ${index}`)]);
    const { agent, provider, events } = agentWith(orchestrator, replies, { limits: { maxTurns: 2 } });
    const result = await agent.prompt('go').result();
    expect(provider.requests).toHaveLength(2);
    expect(result.terminateReason).toBe('max_turns');
    expect(result.turns).toBe(2);
    expect(events.filter((event) => event.type === 'turn_start')).toHaveLength(2);
    expect(turnsBalanced(events)).toBe(true);
  });

  it('a second model call in one turn starts a turn of its own', async () => {
    const orchestrator: Orchestrator = {
      name: 'two-calls-a-turn',
      async run(ctx) {
        ctx.nextTurn();
        await ctx.callModel();
        await ctx.callModel();
        ctx.endTurn();
        return { reason: 'completed' };
      },
    };
    const { agent, events } = agentWith(orchestrator, [[textDone('draft')], [textDone('final')]]);
    const result = await agent.prompt('go').result();
    expect(result.turns).toBe(2);
    expect(
      events.filter((event) => event.type.startsWith('turn_')).map((event) => `${event.type} ${event.turn}`),
    ).toEqual(['turn_start 1', 'turn_end 1', 'turn_start 2', 'turn_end 2']);
  });

  it('an early return leaves no turn open: core ends it before agent_end', async () => {
    const orchestrator: Orchestrator = {
      name: 'early-exit',
      async run(ctx) {
        ctx.nextTurn();
        const response = await ctx.callModel();
        // Returns without endTurn(), as the first guide's example did on a failed call.
        return response.ok ? { reason: 'completed' } : { reason: response.reason };
      },
    };
    const { agent, events } = agentWith(orchestrator, [[reply({ text: 'hi' })]]);
    await agent.prompt('go').result();
    expect(turnsBalanced(events)).toBe(true);
    const end = events.find((event) => event.type === 'turn_end');
    expect(end?.type === 'turn_end' && end.message?.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(events.at(-1)?.type).toBe('agent_end');
  });
});

describe('a stopped run', () => {
  it('callModel and executeTool reject after an abort; a loop that swallows the refusals still lets timers fire and the result settles', async () => {
    let refusals = 0;
    const orchestrator: Orchestrator = {
      name: 'ignores-abort',
      async run(ctx) {
        for (;;) {
          try {
            await ctx.callModel();
          } catch {
            refusals++;
          }
        }
      },
    };
    const replies = Array.from({ length: 3 }, () => [textDone('again')]);
    const { agent, provider } = agentWith(orchestrator, replies, { limits: { stopGraceMs: 20 } });
    const run = agent.prompt('go');
    let requests = 0;
    agent.subscribe((event) => {
      if (event.type === 'message_end' && ++requests === 2) agent.abort();
    });
    const result = await run.result();
    expect(result.terminateReason).toBe('error');
    expect(result.error?.code).toBe('orchestrator_unresponsive');
    expect(result.error?.message).toMatch(/did not return from run\(\) within limits.stopGraceMs \(20 ms\)/);
    expect(provider.requests).toHaveLength(2);
    expect(refusals).toBeGreaterThan(0);
    expect(agent.isRunning).toBe(false);
  });

  it('result() settles on abort even if run() never returns: marked failed, history valid, the agent usable again', async () => {
    let zombie: OrchestratorContext | undefined;
    let release: () => void = () => {};
    const stuck: Orchestrator = {
      name: 'never-returns',
      async run(ctx) {
        zombie = ctx;
        const first = await ctx.callModel();
        if (first.ok) ctx.endTurn(first.message);
        // Waits for something of its own that ignores the abort.
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { reason: 'completed' };
      },
    };
    const { agent } = agentWith(stuck, [[toolDone('count', {})]], { limits: { stopGraceMs: 10 } });
    const run = agent.prompt('go');
    agent.subscribe((event) => {
      if (event.type === 'turn_end') agent.abort();
    });
    const result = await run.result();
    expect(result.terminateReason).toBe('error');
    expect(result.error?.code).toBe('orchestrator_unresponsive');
    expect(historyProblems(agent.messages)).toEqual([]);

    // The agent takes a new prompt; the old orchestrator cannot reach it.
    const next = new Agent({
      ...agent.options,
      messages: agent.messages,
      orchestrator: { name: 'plain', run: async () => ({ reason: 'completed' }) },
    });
    expect((await next.prompt('again').result()).terminateReason).toBe('completed');
    const before = agent.messages.length;
    const context = zombie as OrchestratorContext;
    expect(() => context.append({ role: 'user', content: 'late' })).toThrow(/after the run ended/);
    await expect(context.callModel()).rejects.toMatchObject({ code: 'run_ended' });
    expect(context.pollSteering()).toEqual([]);
    release();
    expect(agent.messages.length).toBe(before);
  });

  it('result() settles on a timeout even if run() never returns', async () => {
    const stuck: Orchestrator = {
      name: 'waits-forever',
      run: () => new Promise(() => {}),
    };
    const { agent } = agentWith(stuck, [], { limits: { timeoutMs: 5, stopGraceMs: 5 } });
    const result = await agent.prompt('go').result();
    expect(result.error?.code).toBe('orchestrator_unresponsive');
    expect(result.error?.message).toMatch(/The run stopped \(timeout\)/);
  });

  it('a refusal after the run stopped ends it for that reason, not as an error', async () => {
    const orchestrator: Orchestrator = {
      name: 'calls-past-the-limit',
      async run(ctx) {
        for (;;) await ctx.callModel();
      },
    };
    const { agent } = agentWith(orchestrator, [[textDone('one')], [textDone('two')]], {
      limits: { maxTurns: 1 },
    });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('max_turns');
    expect(result.error).toBeUndefined();
    expect(result.turns).toBe(1);
  });
});
