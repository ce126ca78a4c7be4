import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentOptions,
  ConfigError,
  defineTool,
  MemorySessionStore,
  type Orchestrator,
  type OrchestratorContext,
  SessionManager,
  toolCallsOf,
} from '../index.js';
import { inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';

// A two-phase strategy (gather, then write) whose first phase ends with a call that needs
// approval. It saves its phase with ctx.saveState; on resume it reads ctx.resuming and
// ctx.savedState and goes on with the second phase instead of gathering again.

const fetchNotes = defineTool({
  name: 'fetch_notes',
  description: 'fetches notes',
  risk: 'network',
  parameters: z.object({}),
  execute: () => 'the notes',
});

interface Seen {
  resuming: boolean;
  saved: unknown;
}

/** One phase: a model call and its tool calls. Returns false when the run stopped. */
async function phase(ctx: OrchestratorContext): Promise<boolean> {
  if (ctx.nextTurn() !== undefined) return false;
  const reply = await ctx.callModel();
  if (!reply.ok) return false;
  for (const call of toolCallsOf(reply.message)) {
    await ctx.executeTool(call);
    if (ctx.aborted) return false;
  }
  ctx.endTurn(reply.message);
  return true;
}

function twoPhases(seen: Seen[]): Orchestrator {
  return {
    name: 'two-phases',
    async run(ctx) {
      seen.push({ resuming: ctx.resuming, saved: ctx.savedState });
      const saved = ctx.savedState as { phase: number } | undefined;
      // The paused phase's calls were answered before run() was called: that phase is done.
      let next = ctx.resuming && saved !== undefined ? saved.phase + 1 : 1;
      if (next === 2) ctx.append({ role: 'user', content: 'Now write it up.' });
      for (; next <= 2; next++) {
        // Saved before the phase's work: a pause inside it resumes after it.
        ctx.saveState({ phase: next });
        if (!(await phase(ctx))) return { reason: ctx.nextTurn() ?? 'aborted' };
        if (next === 1) ctx.append({ role: 'user', content: 'Now write it up.' });
      }
      return { reason: 'completed' };
    },
  };
}

function replies() {
  return [
    // Phase 1 gathers with a call that needs approval.
    [toolDone('fetch_notes', {})],
    // Phase 2 writes, once resumed.
    [textDone('The write-up.')],
  ];
}

function options(seen: Seen[], provider: AgentOptions['provider']): AgentOptions {
  return {
    provider,
    model: 'm',
    tools: [fetchNotes],
    orchestrator: twoPhases(seen),
    policy: { tools: { fetch_notes: 'ask' }, otherwise: 'allow' },
  };
}

describe('a paused strategy resumes where it paused', () => {
  it('on the same agent: resuming is true, the saved state comes back, no phase runs twice', async () => {
    const seen: Seen[] = [];
    const provider = inlineProvider(replies());
    const agent = new Agent(options(seen, provider));
    const paused = await agent.prompt('Gather and write.').result();
    expect(paused.terminateReason).toBe('await_user');
    expect(paused.orchestratorState).toEqual({ phase: 1 });
    expect(agent.orchestratorState).toEqual({ phase: 1 });

    const [approval] = agent.pendingApprovals;
    const decisions = [
      {
        toolCallId: approval?.toolCallId ?? '',
        inputHash: approval?.inputHash ?? '',
        decision: 'allow' as const,
      },
    ];
    const resumed = await agent.resume({ decisions }).result();
    expect(resumed.terminateReason).toBe('completed');
    expect(resumed.text).toBe('The write-up.');
    expect(seen).toEqual([
      { resuming: false, saved: undefined },
      { resuming: true, saved: { phase: 1 } },
    ]);
    // Two model calls in all: the gathering is not repeated.
    expect(provider.requests).toHaveLength(2);
    expect(agent.orchestratorState).toBeUndefined();
  });

  it('in another process: a new Agent from the stored JSON, or a SessionManager over the same store', async () => {
    const seen: Seen[] = [];
    const first = new Agent(options(seen, inlineProvider(replies().slice(0, 1))));
    await first.prompt('Gather and write.').result();
    const stored = JSON.parse(
      JSON.stringify({
        messages: first.messages,
        pendingApprovals: first.pendingApprovals,
        orchestratorState: first.orchestratorState,
      }),
    );
    const provider = inlineProvider(replies().slice(1));
    const second = new Agent({ ...options(seen, provider), ...stored });
    const [approval] = second.pendingApprovals;
    await second
      .resume({
        decisions: [
          { toolCallId: approval?.toolCallId ?? '', inputHash: approval?.inputHash ?? '', decision: 'allow' },
        ],
      })
      .result();
    expect(seen.at(-1)).toEqual({ resuming: true, saved: { phase: 1 } });
    expect(provider.requests).toHaveLength(1);

    const store = new MemorySessionStore();
    const sessionSeen: Seen[] = [];
    const manager = (provider: AgentOptions['provider']) =>
      new SessionManager({ store, agentOptions: () => options(sessionSeen, provider) });
    const session = await manager(inlineProvider(replies().slice(0, 1))).create();
    await session.prompt('Gather and write.').result();
    const later = await manager(inlineProvider(replies().slice(1))).get(session.id);
    const [waiting] = later.agent.pendingApprovals;
    const result = await later
      .resume({
        decisions: [
          { toolCallId: waiting?.toolCallId ?? '', inputHash: waiting?.inputHash ?? '', decision: 'allow' },
        ],
      })
      .result();
    expect(result.terminateReason).toBe('completed');
    expect(sessionSeen.at(-1)).toEqual({ resuming: true, saved: { phase: 1 } });
  });

  it('a new prompt after a pause starts over: resuming is false and nothing is handed back', async () => {
    const seen: Seen[] = [];
    const agent = new Agent(
      options(seen, inlineProvider([...replies().slice(0, 1), [textDone('fresh')], [textDone('done')]])),
    );
    await agent.prompt('Gather and write.').result();
    await agent.prompt('Something else.').result();
    expect(seen.at(-1)).toEqual({ resuming: false, saved: undefined });
  });

  it('saveState takes small plain JSON only; a stored state that is not JSON is a ConfigError', async () => {
    const problems: string[] = [];
    const orchestrator: Orchestrator = {
      name: 'saves-oddities',
      async run(ctx) {
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        for (const value of [() => 1, cyclic, { big: 'x'.repeat(70_000) }]) {
          try {
            ctx.saveState(value);
          } catch (error) {
            problems.push((error as { code: string }).code);
          }
        }
        ctx.saveState({ when: new Date(0) });
        return { reason: 'completed' };
      },
    };
    await new Agent({ provider: inlineProvider([]), model: 'm', orchestrator }).prompt('go').result();
    expect(problems).toEqual(['orchestrator_state', 'orchestrator_state', 'orchestrator_state']);
    expect(
      () => new Agent({ provider: inlineProvider([]), model: 'm', orchestratorState: { f: 1n } }),
    ).toThrow(ConfigError);
  });
});
