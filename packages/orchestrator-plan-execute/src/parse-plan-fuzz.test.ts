import { propertySettings, soak } from '@agent-core/test-support';
import { Agent, type AgentEvent } from '@agent-core/core';
import { mock } from '@agent-core/provider-mock';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { type PlanStep, parsePlan } from './parse-plan.js';
import { isPlanExecuteEventOf } from './plan-events.js';
import { planExecute } from './plan-execute.js';

// The plan parser under arbitrary text: it never throws, and answers either steps that satisfy
// the plan's rules or a sentence for the model; a valid plan parses to its steps however it is
// wrapped (bare, as an array, fenced, with prose around it); and a plan streamed in chunks of any
// size gives the run the same plan. `pnpm test:soak` runs many more cases.

// The soak run's many cases take minutes, not the default run's seconds. A failure prints its seed
// and path: AGENT_CORE_SEED and AGENT_CORE_PATH replay it.
if (soak) vi.setConfig({ testTimeout: 60 * 60_000 });
const settings = propertySettings;

const word = fc.constantFrom(
  'read',
  'the',
  'files',
  'then',
  'write',
  'notes',
  'naïve',
  '数字',
  '🙂',
  '"quoted"',
  'back\\slash',
);
const phrase = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));
const step: fc.Arbitrary<PlanStep> = fc.record({ title: phrase, instruction: phrase });
const steps = fc.array(step, { minLength: 1, maxLength: 10 });

/** Text shaped like plans, broken or not, and text of any kind. */
const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify({ steps: value })),
  fc
    .tuple(fc.string({ maxLength: 20 }), steps, fc.nat(200), fc.string({ maxLength: 20 }))
    .map(([before, plan, cut, after]) => {
      const json = JSON.stringify({ steps: plan });
      return `${before}\`\`\`json\n${json.slice(0, cut)}${after}`;
    }),
);

describe('parsePlan on arbitrary text', () => {
  it('never throws, and gives steps within the rules or a sentence saying what is wrong', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 12 }), (text, maxSteps) => {
        const result = parsePlan(text, maxSteps);
        if (result.ok) {
          expect(result.steps.length).toBeGreaterThanOrEqual(1);
          expect(result.steps.length).toBeLessThanOrEqual(maxSteps);
          for (const { title, instruction } of result.steps) {
            expect(title.trim()).not.toBe('');
            expect(instruction.trim()).not.toBe('');
          }
        } else {
          expect(result.problem.length).toBeGreaterThan(10);
        }
      }),
      settings(2_000, 100_000),
    );
  });

  it('reads a valid plan however it is wrapped', () => {
    const wrapped = fc.tuple(
      steps,
      fc.constantFrom('bare', 'array', 'fenced', 'fenced bare', 'prose'),
      phrase,
    );
    fc.assert(
      fc.property(wrapped, ([plan, form, prose]) => {
        const json = JSON.stringify(form === 'array' ? plan : { steps: plan });
        const text =
          form === 'fenced'
            ? `${prose}\n\`\`\`json\n${json}\n\`\`\`\n${prose}`
            : form === 'fenced bare'
              ? `\`\`\`\n${json}\n\`\`\``
              : form === 'prose'
                ? `Here is my plan: ${json} Let me know.`
                : json;
        expect(parsePlan(text)).toEqual({
          ok: true,
          steps: plan.map(({ title, instruction }) => ({ title, instruction })),
        });
      }),
      settings(500, 20_000),
    );
  });
});

describe('a plan streamed in chunks of any size', () => {
  it('gives the run the same plan as one whole delta', async () => {
    const planOf = async (text: string, chunkSize: number) => {
      // The plan, then an answer to every step and to the summary.
      const provider = mock({ turns: (_, call) => (call === 0 ? { text } : { text: 'Done.' }), chunkSize });
      const agent = new Agent({ provider, model: 'mock', orchestrator: planExecute() });
      const events: AgentEvent[] = [];
      agent.subscribe((event) => events.push(event));
      const result = await agent.prompt('Do the work').result();
      const plan = events.find((event) => isPlanExecuteEventOf(event, 'plan'));
      return {
        plan: plan === undefined ? undefined : (plan.data as { steps: PlanStep[] }).steps,
        end: result.terminateReason,
      };
    };
    await fc.assert(
      fc.asyncProperty(steps, fc.integer({ min: 1, max: 40 }), async (plan, chunkSize) => {
        const text = `\`\`\`json\n${JSON.stringify({ steps: plan })}\n\`\`\``;
        const whole = await planOf(text, 0);
        expect(whole.plan).toEqual(plan);
        expect(await planOf(text, chunkSize)).toEqual(whole);
      }),
      settings(30, 1_000),
    );
  });
});
