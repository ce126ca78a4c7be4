import type { ProviderErrorKind } from '@agent-core/core';
import fc from 'fast-check';
import { type CalledTool, type ToolOutcome, toolNames } from './loop-tools.js';

/** One tool call a scripted reply makes. `input: 'invalid'` breaks the tool's schema. */
export interface ScriptedCall {
  tool: CalledTool;
  input: { outcome: ToolOutcome; size: number } | 'invalid';
}

/** A provider failure instead of a reply: before any output, or after the first chunk of text. */
export interface ScriptedFailure {
  kind: ProviderErrorKind;
  afterChunks: 0 | 1;
}

/** What the person and the app do around the run: queued messages, an abort, policy and approvals. */
export interface Surroundings {
  /** Event positions (counted over the first run) at which a steering and/or follow-up message is queued. */
  queue: { at: number; steer: boolean; followUp: boolean }[];
  /** The event position of the first run at which `agent.abort()` is called; undefined: never. */
  abortAt: number | undefined;
  /** The policy's answer per tool; undefined: no policy, every call allowed. */
  policy: Record<(typeof toolNames)[number], 'allow' | 'ask' | 'deny'> | undefined;
  /** An approver that answers at once, from `answers`, or none (an `ask` pauses the run). */
  approver: 'at_once' | 'none';
  /** Answers given in turn: by the approver, then as the decisions of each resume. */
  answers: ('allow' | 'allow_always' | 'deny')[];
  /** How each pause is resumed, in turn: the same agent, or a new one from the stored JSON. None left: the run stays paused. */
  resumes: ('same_agent' | 'from_json')[];
  /** A context window budget in tokens small enough to compact; undefined: none. */
  contextBudget: number | undefined;
  /** `limits.maxTurns`, raised to what the orchestrator needs to answer at all. */
  maxTurns: number;
}

const word = fc.constantFrom(
  'alpha',
  'beta',
  'gamma',
  'delta',
  'note',
  'the',
  'answer',
  'is',
  '45',
  'done',
  'ok',
);

/** Plain text of a few words. */
export const textArbitrary = fc.array(word, { minLength: 1, maxLength: 30 }).map((words) => words.join(' '));

/** A tool call: mostly known tools with valid input, sometimes an unknown tool or input its schema refuses. */
export const callArbitrary: fc.Arbitrary<ScriptedCall> = fc.record({
  tool: fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...toolNames) },
    { weight: 1, arbitrary: fc.constant('missing_tool' as const) },
  ),
  input: fc.oneof(
    {
      weight: 9,
      arbitrary: fc.record({
        outcome: fc.constantFrom<ToolOutcome>('value', 'value', 'throw', 'hang'),
        size: fc.nat(60),
      }),
    },
    { weight: 1, arbitrary: fc.constant('invalid' as const) },
  ),
});

/** A provider failure: mostly retryable, sometimes one that ends the run. */
export const failureArbitrary: fc.Arbitrary<ScriptedFailure> = fc.record({
  kind: fc.constantFrom<ProviderErrorKind>('overloaded', 'network', 'server', 'invalid_request'),
  afterChunks: fc.constantFrom<0 | 1>(0, 1),
});

const verdict = fc.constantFrom<'allow' | 'ask' | 'deny'>('allow', 'ask', 'ask', 'deny');

/** `value` one time in `1 + weightOfNone`; else undefined. */
function sometimes<T>(value: fc.Arbitrary<T>, weightOfNone: number): fc.Arbitrary<T | undefined> {
  return fc.oneof(
    { weight: weightOfNone, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: value },
  );
}

/** The surroundings of a run, for any orchestrator. */
export const surroundingsArbitrary: fc.Arbitrary<Surroundings> = fc.record({
  queue: fc.array(fc.record({ at: fc.nat(60), steer: fc.boolean(), followUp: fc.boolean() }), {
    maxLength: 3,
  }),
  // An abort in about a quarter of the runs, at any event of the first run (or past its end).
  abortAt: sometimes(fc.nat(60), 3),
  policy: sometimes(fc.record({ read_note: verdict, write_note: verdict, run_job: verdict }), 1),
  approver: fc.constantFrom<'at_once' | 'none'>('at_once', 'none', 'none'),
  answers: fc.array(fc.constantFrom<'allow' | 'allow_always' | 'deny'>('allow', 'allow_always', 'deny'), {
    minLength: 1,
    maxLength: 6,
  }),
  resumes: fc.array(fc.constantFrom<'same_agent' | 'from_json'>('same_agent', 'from_json'), {
    minLength: 0,
    maxLength: 3,
  }),
  contextBudget: sometimes(fc.integer({ min: 300, max: 3000 }), 2),
  maxTurns: fc.integer({ min: 1, max: 12 }),
});

/** The JSON input a scripted call sends. */
export function callInput(call: ScriptedCall): Record<string, unknown> {
  return call.input === 'invalid' ? { outcome: 'explode', size: 'many' } : call.input;
}
