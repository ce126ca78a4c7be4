import { describe, expect, it } from 'vitest';
import { parsePlan } from './index.js';

describe('parsePlan', () => {
  const steps = [{ title: 'look', instruction: 'Look it up' }];

  it('reads the object form, the bare array form, fenced JSON and JSON inside prose', () => {
    expect(parsePlan(JSON.stringify({ steps }))).toEqual({ ok: true, steps });
    expect(parsePlan(JSON.stringify(steps))).toEqual({ ok: true, steps });
    expect(
      parsePlan(`Here is my plan:\n\`\`\`json\n${JSON.stringify({ steps })}\n\`\`\`\nGood luck.`),
    ).toEqual({
      ok: true,
      steps,
    });
    expect(parsePlan(`Plan: ${JSON.stringify({ steps })} (short)`)).toEqual({ ok: true, steps });
  });

  it('trims titles and instructions', () => {
    expect(parsePlan('{"steps": [{"title": "  a ", "instruction": " b  "}]}')).toEqual({
      ok: true,
      steps: [{ title: 'a', instruction: 'b' }],
    });
  });

  it.each([
    ['no JSON', 'just words', 'the reply contained no JSON object.'],
    ['a missing instruction', '{"steps": [{"title": "a"}]}', 'plan.steps.0.instruction'],
    ['an empty title', '{"steps": [{"title": " ", "instruction": "b"}]}', 'plan.steps.0.title needs a title'],
    ['no steps key', '{"plan": []}', 'plan.steps'],
    ['too many steps', JSON.stringify({ steps: [...steps, ...steps, ...steps] }), 'at most 2 steps'],
  ])('says what is wrong: %s', (_, reply, problem) => {
    const result = parsePlan(reply, 2);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toContain(problem);
  });
});
