import { z } from 'zod';
import { planText } from './plan-text.js';

/** One step of a plan. */
export interface PlanStep {
  /** A short title, shown in events. */
  title: string;
  /** What the model is to do in this step. */
  instruction: string;
}

/** The outcome of `parsePlan`: the steps, or a sentence saying what was wrong. */
export type PlanParseResult = { ok: true; steps: PlanStep[] } | { ok: false; problem: string };

function planSchema(maxSteps: number) {
  const step = z.object({
    title: z.string().trim().min(1, 'needs a title'),
    instruction: z.string().trim().min(1, 'needs an instruction'),
  });
  return z.object({
    steps: z
      .array(step)
      .min(1, 'must have at least one step')
      .max(maxSteps, `may have at most ${maxSteps} steps`),
  });
}

/**
 * Reads a plan from a model reply: JSON `{"steps": [{"title", "instruction"}]}`
 * (a bare array of steps is accepted too), optionally in a code fence or with
 * prose around it, validated with zod.
 */
export function parsePlan(reply: string, maxSteps = 10): PlanParseResult {
  const json = extractJson(reply);
  if (json === undefined) {
    return { ok: false, problem: 'the reply contained no JSON object.' };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return {
      ok: false,
      problem: `the JSON is not valid (${error instanceof Error ? error.message : String(error)}).`,
    };
  }
  if (Array.isArray(value)) value = { steps: value };
  const parsed = planSchema(maxSteps).safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${['plan', ...issue.path.map(String)].join('.')} ${issue.message}`,
    );
    return { ok: false, problem: `${problems.join('; ')}.` };
  }
  return { ok: true, steps: parsed.data.steps };
}

function extractJson(reply: string): string | undefined {
  const text = planText(reply);
  const object = text.indexOf('{');
  const array = text.indexOf('[');
  const start = object < 0 ? array : array < 0 ? object : Math.min(object, array);
  if (start < 0) return undefined;
  const end = text.lastIndexOf(text[start] === '{' ? '}' : ']');
  return end > start ? text.slice(start, end + 1) : text.slice(start);
}
