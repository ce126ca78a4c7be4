import { requestDifferences, sessionCassette } from '@agent-core/cassette';
import { type SessionStore, SessionManager, type UserMessage } from '@agent-core/core';
import { makeAgentOptions } from '../make-agent/make-agent-options.js';
import { cliSession } from '../sessions/cli-session.js';
import { recordedTools } from './recorded-tools.js';
import type { Divergence, ReplayedPrompt, ReplayOutcome } from './replay-outcome.js';
import { toolDifferences } from './replay-outcome.js';
import { promptText } from './replay-session.js';
import { replayPlan } from './replay-plan.js';
import type { ReplayInput } from './replay-session.js';

/**
 * `agent-core replay --update`: the session's prompts sent to today's live
 * model (the configuration's provider and model), with today's prompt, tools
 * and orchestrator, into a new stored session whose metadata names the one it
 * re-records (`replayOf`). The old session is left as it is; the outcome
 * names the new one and where its requests first differ from the old ones.
 * Steering a person gave during a run is given at the run's steering polls, in order.
 */
export async function rerecordSession(input: ReplayInput & { store: SessionStore }): Promise<ReplayOutcome> {
  const { recorded, settings } = input;
  const history = recorded.messages;
  const plan = replayPlan(history);
  // Each prompt's steering, by the prompt it came after.
  const steeringOf = new Map<number, UserMessage[]>();
  const starts = plan.prompts.map((prompt) => prompt.index);
  for (const [index, message] of plan.steering) {
    const start = starts.filter((prompt) => prompt < index).at(-1) ?? 0;
    steeringOf.set(start, [...(steeringOf.get(start) ?? []), message]);
  }
  let queued: UserMessage[] = [];
  const made: { close(): Promise<void> }[] = [];
  const manager = new SessionManager({
    store: input.store,
    agentOptions: async ({ metadata }) => {
      const agent = await makeAgentOptions(settings, cliSession(settings, metadata));
      made.push(agent);
      const tools = agent.options.tools ?? [];
      return {
        ...agent.options,
        tools: input.tools === 'recorded' ? recordedTools(tools, history) : tools,
        getSteeringMessages: () => (queued.length === 0 ? [] : [queued.shift() as UserMessage]),
      };
    },
  });
  try {
    const session = await manager.create({ metadata: { ...input.metadata, replayOf: input.id } });
    const prompts: ReplayedPrompt[] = [];
    for (const prompt of plan.prompts) {
      queued = [...(steeringOf.get(prompt.index) ?? [])];
      const result = await session.prompt(prompt.message).result();
      prompts.push({
        text: promptText(prompt.message),
        modelCalls: result.turns,
        toolCalls: result.toolCalls.length,
        reason: result.terminateReason,
      });
    }
    await session.idle();
    const again = await sessionCassette(input.store, session.id);
    return {
      session: input.id,
      mode: 'update',
      tools: input.tools,
      reproduced: prompts.every((prompt) => prompt.reason === 'completed'),
      prompts,
      modelCalls: again.cassette.entries.length,
      recordedModelCalls: recorded.cassette.entries.length,
      ...firstDifference(recorded.cassette.entries, again.cassette.entries),
      toolDifferences: toolDifferences(history, again.messages),
      ...(recorded.damage === undefined ? {} : { damage: recorded.damage }),
      rerecorded: session.id,
    };
  } finally {
    for (const agent of made) await agent.close();
  }
}

/** Where the new recording's requests first differ from the old one's, model call by model call. */
function firstDifference(
  before: Awaited<ReturnType<typeof sessionCassette>>['cassette']['entries'],
  after: Awaited<ReturnType<typeof sessionCassette>>['cassette']['entries'],
): { divergence?: Divergence } {
  for (let index = 0; index < Math.max(before.length, after.length); index++) {
    const old = before[index];
    const now = after[index];
    if (old === undefined || now === undefined)
      return {
        divergence: {
          modelCall: index + 1,
          differences: [],
          summary: `the new recording makes ${after.length} model calls where the session made ${before.length}`,
        },
      };
    const differences = requestDifferences(old.request, now.request);
    if (differences.length > 0)
      return {
        divergence: {
          modelCall: index + 1,
          nearest: index + 1,
          differences,
          summary: `model call ${index + 1} of the new recording sends a request the session never sent`,
        },
      };
  }
  return {};
}
