import type { CassetteDifference, SessionDamage } from '@agent-core/cassette';
import {
  type AgentMessage,
  canonicalJson,
  type TerminateReason,
  type ToolCallBlock,
  type ToolResultMessage,
} from '@agent-core/core';

/** One prompt of a replay: its text, what its run made, how it ended. */
export interface ReplayedPrompt {
  text: string;
  modelCalls: number;
  toolCalls: number;
  reason: TerminateReason;
}

/** One tool call as a history holds it: the call, and its result. */
export interface ToolRun {
  name: string;
  input: Record<string, unknown>;
  content: ToolResultMessage['content'];
  isError: boolean;
}

/** A tool call (from 1, in order) that differs from the stored session's: its call or its result. */
export interface ToolDifference {
  call: number;
  /** The stored call; undefined when the session has no such call. */
  before?: ToolRun;
  /** The replay's call; undefined when the replay made no such call. */
  after?: ToolRun;
}

/** Where a replay left the recording. */
export interface Divergence {
  /** The replay's model call (from 1) that had no recording; undefined when the requests matched and the histories still differ. */
  modelCall?: number;
  /** The recorded model call (from 1) most like it. */
  nearest?: number;
  differences: readonly CassetteDifference[];
  /** Why, in a sentence. */
  summary: string;
}

/** What `agent-core replay` found. */
export interface ReplayOutcome {
  session: string;
  mode: 'replay' | 'update';
  tools: 'real' | 'recorded';
  reproduced: boolean;
  prompts: ReplayedPrompt[];
  /** Model calls the replay made, and those the session recorded. */
  modelCalls: number;
  recordedModelCalls: number;
  divergence?: Divergence;
  toolDifferences: ToolDifference[];
  damage?: SessionDamage;
  /** With `damage`: whether the replay went as far as the damage (then it stopped there). */
  reachedDamage?: boolean;
  /** With `--update`: the session the new recording was stored as. */
  rerecorded?: string;
}

/** Every tool call of a history that has a result, with it, in the order of the results. */
export function callsWithResults(
  history: readonly AgentMessage[],
): { call: ToolCallBlock; result: ToolResultMessage }[] {
  const calls = new Map<string, ToolCallBlock>();
  const pairs: { call: ToolCallBlock; result: ToolResultMessage }[] = [];
  for (const message of history) {
    const role = (message as { role?: unknown }).role;
    if (role === 'assistant')
      for (const block of (message as { content: { type: string }[] }).content)
        if (block.type === 'toolCall') calls.set((block as ToolCallBlock).id, block as ToolCallBlock);
    if (role !== 'toolResult') continue;
    const result = message as ToolResultMessage;
    const call = calls.get(result.toolCallId);
    if (call !== undefined) pairs.push({ call, result });
  }
  return pairs;
}

function toolRuns(history: readonly AgentMessage[]): ToolRun[] {
  return callsWithResults(history).map(({ call, result }) => ({
    name: call.name,
    input: call.input,
    content: result.content,
    isError: result.isError,
  }));
}

/** The tool calls of `replayed` whose results differ from those of `recorded`, pairing calls by their order. */
export function toolDifferences(
  recorded: readonly AgentMessage[],
  replayed: readonly AgentMessage[],
): ToolDifference[] {
  const before = toolRuns(recorded);
  const after = toolRuns(replayed);
  const found: ToolDifference[] = [];
  for (let index = 0; index < Math.max(before.length, after.length); index++) {
    const old = before[index];
    const now = after[index];
    if (old !== undefined && now !== undefined && canonicalJson(old) === canonicalJson(now)) continue;
    found.push({
      call: index + 1,
      ...(old === undefined ? {} : { before: old }),
      ...(now === undefined ? {} : { after: now }),
    });
  }
  return found;
}
