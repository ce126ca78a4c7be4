import { canonicalRequest, cassette, requestDifferences, type SessionCassette } from '@agent-core/cassette';
import {
  Agent,
  type AgentMessage,
  type AssistantMessage,
  type Message,
  type UserMessage,
} from '@agent-core/core';
import type { AgentSettings } from '../agent-settings.js';
import { allowEverything } from '../approvals/inline-approver.js';
import { makeAgentOptions } from '../make-agent/make-agent-options.js';
import { cliSession } from '../sessions/cli-session.js';
import { recordedTools } from './recorded-tools.js';
import {
  type Divergence,
  type ReplayedPrompt,
  type ReplayOutcome,
  toolDifferences,
} from './replay-outcome.js';
import { replayPlan } from './replay-plan.js';

/** What `replaySession` replays. */
export interface ReplayInput {
  id: string;
  /** The stored session as a cassette (`sessionCassette`), up to its damage if it has any. */
  recorded: SessionCassette;
  /** The session's metadata: the folder it was started in and its tool packs. */
  metadata: Record<string, unknown>;
  settings: AgentSettings;
  /** `real` runs today's tools; `recorded` answers every call from the stored session. */
  tools: 'real' | 'recorded';
}

/**
 * Replays a stored session offline: a fresh agent in memory, made by
 * `makeAgentOptions` as the CLI makes every agent (today's prompt, tools,
 * orchestrator, policy, context window), on the session's recorded replies,
 * prompted with the session's prompts (steering given at the same point).
 * It stops at the first request that has no recording; the outcome says
 * whether the run reproduced, where it diverged and which tool calls differ.
 * The stored session is only read.
 */
export async function replaySession(input: ReplayInput): Promise<ReplayOutcome> {
  const { recorded, settings } = input;
  const history = recorded.messages;
  const made = await makeAgentOptions(settings, cliSession(settings, input.metadata));
  try {
    const player = await cassette({
      cassette: recorded.cassette,
      mode: 'replay',
      // Its model table prices usage as the recording did; nothing is ever sent to it.
      provider: made.options.provider,
    });
    const plan = replayPlan(history);
    const steering = new Map(plan.steering);
    const tools = made.options.tools ?? [];
    const agent: Agent = new Agent({
      ...made.options,
      provider: player,
      // The session's model: its recordings were made with it (and a request names it).
      model: recordedModel(history) ?? made.options.model,
      tools: input.tools === 'recorded' ? recordedTools(tools, history) : tools,
      // Answered from the log, a call runs nothing: there is nothing to approve.
      ...(input.tools === 'recorded' ? { approve: allowEverything } : {}),
      getSteeringMessages: () => {
        const message = steering.get(agent.messages.length);
        if (message === undefined) return [];
        steering.delete(agent.messages.length);
        return [message];
      },
    });
    // Model calls answered from the recording (a call without one ends its run).
    const served = () => recorded.cassette.entries.length - player.unusedEntries().length;
    const prompts: ReplayedPrompt[] = [];
    let divergence: Divergence | undefined;
    let reachedDamage = false;
    for (const prompt of plan.prompts) {
      if (agent.messages.length !== prompt.index) {
        divergence = outOfStep(history, agent.messages, prompt.index);
        break;
      }
      const missesBefore = player.misses.length;
      const servedBefore = served();
      const result = await agent.prompt(prompt.message).result();
      prompts.push({
        text: promptText(prompt.message),
        modelCalls: served() - servedBefore,
        toolCalls: result.toolCalls.length,
        reason: result.terminateReason,
      });
      // Paused where the session went on: a call asked for approval here that was decided there.
      const end = plan.prompts[prompts.length]?.index ?? history.length;
      if (result.terminateReason === 'await_user' && agent.messages.length < end) {
        divergence = {
          differences: [],
          summary: `prompt ${prompts.length} paused: a tool call needs approval and no one could give it (replay with --yes, or answer the calls from the session with --tools=recorded)`,
        };
        break;
      }
      const miss = player.misses[missesBefore];
      if (miss !== undefined) {
        // The history ran out where the log is damaged: the call that would have made its next message had no recording.
        if (recorded.damage !== undefined && historyDivergence(history, agent.messages) === undefined) {
          reachedDamage = true;
          break;
        }
        // The model calls answered so far, then this one.
        divergence = missed(miss.nearest, miss.differences, served() + 1);
        break;
      }
    }
    divergence ??= historyDivergence(history, agent.messages);
    const modelCalls = served();
    return {
      session: input.id,
      mode: 'replay',
      tools: input.tools,
      reproduced: divergence === undefined && player.unusedEntries().length === 0,
      prompts,
      modelCalls,
      recordedModelCalls: recorded.cassette.entries.length,
      ...(divergence === undefined ? {} : { divergence }),
      toolDifferences: toolDifferences(history, agent.messages),
      ...(recorded.damage === undefined ? {} : { damage: recorded.damage, reachedDamage }),
    };
  } finally {
    await made.close();
  }
}

/** The model the session's replies came from: its latest reply's. */
export function recordedModel(history: readonly AgentMessage[]): string | undefined {
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index] as AssistantMessage;
    if (message.role === 'assistant' && message.model !== undefined) return message.model;
  }
  return undefined;
}

/** A prompt's text, for the report: its text blocks joined. */
export function promptText(message: UserMessage): string {
  return typeof message.content === 'string'
    ? message.content
    : message.content.map((block) => (block.type === 'text' ? block.text : '[image]')).join(' ');
}

function missed(
  nearest: number | undefined,
  differences: Divergence['differences'],
  modelCall: number,
): Divergence {
  return {
    modelCall,
    ...(nearest === undefined ? {} : { nearest: nearest + 1 }),
    differences,
    summary:
      nearest === undefined
        ? `model call ${modelCall}: the session holds no model call to replay`
        : differences.length === 0
          ? `model call ${modelCall} repeats a request the session made fewer times`
          : `model call ${modelCall} sends a request the session never sent`,
  };
}

/** The replay's history against the stored one, when every request matched: what still differs. */
function historyDivergence(
  history: readonly AgentMessage[],
  replayed: readonly AgentMessage[],
): Divergence | undefined {
  const differences = requestDifferences(
    canonicalRequest({ model: '', messages: history as Message[] }),
    canonicalRequest({ model: '', messages: replayed as Message[] }),
  );
  if (differences.length === 0) return undefined;
  return { differences, summary: 'every request matched, but the history the replay ended with differs' };
}

function outOfStep(
  history: readonly AgentMessage[],
  replayed: readonly AgentMessage[],
  index: number,
): Divergence {
  return {
    ...(historyDivergence(history.slice(0, index), replayed) ?? { differences: [] }),
    summary: `the replay's run ended with ${replayed.length} messages where the session has ${index} before its next prompt`,
  };
}
