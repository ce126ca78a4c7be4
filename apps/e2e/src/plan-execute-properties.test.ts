import type { ModelRequest, UserMessage } from '@agent-core/core';
import { planExecute, stepFailedMarker } from '@agent-core/orchestrator-plan-execute';
import type { MockTurn } from '@agent-core/provider-mock';
import fc from 'fast-check';
import { afterAll, describe, it } from 'vitest';
import { type LoopAdapter, runScenario } from './test-support/loop-harness.js';
import {
  callArbitrary,
  callInput,
  failureArbitrary,
  type ScriptedCall,
  type ScriptedFailure,
  surroundingsArbitrary,
  textArbitrary,
} from './test-support/loop-scenario.js';
import { LoopStatistics } from './test-support/loop-statistics.js';
import { propertySettings, propertyTimeoutMs, report } from './test-support/soak.js';

// Plan and execute under random scripts: plans valid and not (bad JSON, no steps, too many, in
// fences or bare arrays), steps that call tools, answer, fail (re-planning) or meet a provider
// failure, summaries; tool calls sequential or parallel; with the same surroundings and
// invariants as the other loops. Each kind of request is answered from its own list.

type PlanReply =
  | { steps: string[]; form: 'object' | 'array' | 'fenced' }
  | { invalid: 'bad_json' | 'no_steps' | 'empty_title' | 'prose' };
type StepReply = { text?: string; calls: ScriptedCall[] } | { failed: string } | { failure: ScriptedFailure };

interface PlanScript {
  parallel: boolean;
  plans: PlanReply[];
  steps: StepReply[];
  summaries: string[];
}

const planArbitrary: fc.Arbitrary<PlanReply> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      steps: fc.array(textArbitrary, { minLength: 1, maxLength: 3 }),
      form: fc.constantFrom('object', 'object', 'array', 'fenced'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ invalid: fc.constantFrom('bad_json', 'no_steps', 'empty_title', 'prose') }),
  },
);

const stepArbitrary: fc.Arbitrary<StepReply> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      { text: textArbitrary, calls: fc.array(callArbitrary, { maxLength: 3 }) },
      { requiredKeys: ['calls'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ failed: textArbitrary }) },
  { weight: 1, arbitrary: fc.record({ failure: failureArbitrary }) },
);

const scriptArbitrary: fc.Arbitrary<PlanScript> = fc.record({
  parallel: fc.boolean(),
  plans: fc.array(planArbitrary, { maxLength: 3 }),
  steps: fc.array(stepArbitrary, { maxLength: 6 }),
  summaries: fc.array(textArbitrary, { maxLength: 2 }),
});

function planText(plan: PlanReply): string {
  if ('invalid' in plan) {
    if (plan.invalid === 'bad_json') return '{"steps": [{"title": "one", "instruction": }]}';
    if (plan.invalid === 'no_steps') return '{"steps": []}';
    if (plan.invalid === 'empty_title') return '{"steps": [{"title": " ", "instruction": "do it"}]}';
    return 'I would rather just start working.';
  }
  const steps = plan.steps.map((title) => ({ title, instruction: `Do: ${title}` }));
  if (plan.form === 'array') return JSON.stringify(steps);
  const json = JSON.stringify({ steps });
  return plan.form === 'fenced' ? `Here is the plan:\n\`\`\`json\n${json}\n\`\`\`` : json;
}

/** What the orchestrator asks for: a plan, a step's work, or the summary (its instructions say which). */
function requestKind(request: ModelRequest): 'plan' | 'step' | 'summary' {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user') as UserMessage;
  const text = typeof lastUser?.content === 'string' ? lastUser.content : '';
  if (/^Before doing anything|^That plan could not be used|Write a new plan/m.test(text)) return 'plan';
  if (text.startsWith('All steps are done')) return 'summary';
  return 'step';
}

const planExecuteAdapter: LoopAdapter<PlanScript> = {
  name: 'plan-execute',
  orchestrator: () => planExecute({ maxReplans: 1, maxStepTurns: 3 }),
  toolExecution: (script) => (script.parallel ? 'parallel' : 'sequential'),
  // A plan, one step and the summary.
  minTurns: 3,
  replier(script, nextId) {
    const next = { plan: 0, step: 0, summary: 0 };
    return {
      wrapUp: false,
      turn(request): MockTurn {
        const kind = requestKind(request);
        if (kind === 'plan') {
          const plan = this.wrapUp ? undefined : script.plans[next.plan++];
          return { text: planText(plan ?? { steps: ['wrap up'], form: 'object' }) };
        }
        if (kind === 'summary')
          return { text: (this.wrapUp ? undefined : script.summaries[next.summary++]) ?? 'All done.' };
        const step = this.wrapUp ? undefined : script.steps[next.step++];
        if (step === undefined) return { text: 'Step done.' };
        if ('failed' in step) return { text: `${stepFailedMarker} ${step.failed}` };
        if ('failure' in step) return { text: 'Working', error: step.failure };
        return {
          ...(step.text === undefined ? {} : { text: step.text }),
          toolCalls: step.calls.map((call) => ({ name: call.tool, input: callInput(call), id: nextId() })),
        };
      },
    };
  },
};

describe('plan-execute under random scripts', () => {
  const statistics = new LoopStatistics();
  afterAll(() => report('plan-execute property runs', statistics.toString()));

  it(
    'keeps every loop invariant',
    async () => {
      await fc.assert(
        fc.asyncProperty(scriptArbitrary, surroundingsArbitrary, (script, surroundings) =>
          runScenario(planExecuteAdapter, script, surroundings, statistics),
        ),
        propertySettings(50, 2000),
      );
    },
    propertyTimeoutMs,
  );
});
