import { createHash } from 'node:crypto';
import type { ApprovalDecision, PromptInput } from '@agent-core/core';
import { RunInputError } from './run-input-error.js';

/**
 * What an operation asks of a session, as plain JSON:
 * - `prompt`: a new run with this input, as `session.prompt(prompt)`;
 * - `follow_up`: a message for once the session's earlier operations are
 *   done; unlike a prompt it never answers calls still waiting for approval
 *   as skipped, but waits until they are decided;
 * - `resume`: decisions for the calls waiting for approval, applied as
 *   `session.resume({ decisions })` (see `RunQueue.decide`).
 */
export type RunInput =
  | { type: 'prompt'; prompt: PromptInput }
  | { type: 'follow_up'; message: PromptInput }
  | { type: 'resume'; decisions: ApprovalDecision[] };

/** What `enqueue` takes: a run input, or a string as a prompt. */
export type RunInputLike = RunInput | string;

/** The input as stored, or `RunInputError` saying what is wrong with it. */
export function checkRunInput(given: unknown): RunInput {
  if (typeof given === 'string') return { type: 'prompt', prompt: checkPrompt(given, 'the prompt') };
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw new RunInputError(`expected a string or an object with a type, got ${describe(given)}`);
  const input = given as Record<string, unknown>;
  switch (input.type) {
    case 'prompt':
      return { type: 'prompt', prompt: checkPrompt(input.prompt, 'prompt') };
    case 'follow_up':
      return { type: 'follow_up', message: checkPrompt(input.message, 'message') };
    case 'resume':
      return { type: 'resume', decisions: checkDecisions(input.decisions) };
    default:
      throw new RunInputError(`unknown type ${describe(input.type)}`);
  }
}

/** A hash of the session and the input's canonical JSON: the same enqueue twice has the same hash. */
export function runInputHash(sessionId: string, input: RunInput): string {
  return createHash('sha256')
    .update(JSON.stringify([sessionId, canonical(input)]))
    .digest('hex');
}

function checkPrompt(value: unknown, name: string): PromptInput {
  if (typeof value === 'string') {
    if (value.trim() === '') throw new RunInputError(`${name} is empty`);
    return value;
  }
  if (typeof value !== 'object' || value === null)
    throw new RunInputError(`${name} must be text, content blocks or messages, got ${describe(value)}`);
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) throw new RunInputError(`${name} is an empty list`);
  for (const item of items) {
    const record = item as Record<string, unknown> | null;
    if (
      typeof record !== 'object' ||
      record === null ||
      (record.role === undefined && record.type === undefined)
    )
      throw new RunInputError(
        `${name} holds ${describe(item)}, which is neither a content block nor a message`,
      );
  }
  checkPlainJson(value, name);
  return value as PromptInput;
}

function checkDecisions(value: unknown): ApprovalDecision[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new RunInputError('decisions must be a non-empty list of { toolCallId, inputHash, decision }');
  for (const decision of value) {
    const record = decision as Record<string, unknown> | null;
    if (
      typeof record?.toolCallId !== 'string' ||
      typeof record.inputHash !== 'string' ||
      !['allow', 'allow_always', 'deny'].includes(record.decision as string)
    )
      throw new RunInputError(
        `a decision needs a toolCallId, an inputHash and a decision of 'allow', 'allow_always' or 'deny', got ${describe(decision)}`,
      );
  }
  checkPlainJson(value, 'decisions');
  return value as ApprovalDecision[];
}

/** Refuses what JSON would change on the way to the database and back (undefined, functions, NaN, cycles, class instances). */
function checkPlainJson(value: unknown, name: string): void {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new RunInputError(
      `${name} is not plain JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (JSON.stringify(canonical(JSON.parse(text))) !== JSON.stringify(canonical(value)))
    throw new RunInputError(
      `${name} does not survive a JSON round trip: keep it to strings, numbers, booleans, null, arrays and plain objects`,
    );
}

/** The value with object keys sorted, for hashing and comparing. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = canonical((value as Record<string, unknown>)[key]);
  return sorted;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
