import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { type PlanParseResult, parsePlan } from './parse-plan.js';
import { planText } from './plan-text.js';

// The soak run's many cases take minutes, not the default run's seconds.
if (process.env.AGENT_CORE_SOAK === '1') vi.setConfig({ testTimeout: 60 * 60_000 });

// A plan reply with an opening code fence and then a long run of spaces made the fence pattern
// backtrack in quadratic time (500,000 spaces: some 30 s, blocking the process). A synchronous
// parse cannot be interrupted, so the case checks its own time against a bound a thousand times
// above what a linear parse takes: it catches a parser that hangs, it does not measure speed.
// The scan that replaced the pattern is checked against it on short random texts.

const hangBoundMs = 3_000;

function timedParse(reply: string): PlanParseResult {
  const started = performance.now();
  const result = parsePlan(reply);
  expect(performance.now() - started, `parsing ${reply.length} characters`).toBeLessThan(hangBoundMs);
  return result;
}

/** The fence pattern the scan replaced, and what parsePlan made of its match. */
function planTextByPattern(reply: string): string {
  const fenced = /```[\w-]*[ \t]*\n?([\s\S]*?)```/.exec(reply);
  return (fenced === null ? reply : (fenced[1] as string)).trim();
}

describe('parsePlan on long runs of one character', () => {
  it('an opening fence followed by 500,000 spaces', () => {
    expect(timedParse(`\`\`\`${' '.repeat(500_000)}x`)).toMatchObject({ ok: false });
  });

  it('a fenced plan after 200,000 spaces of preamble', () => {
    const plan = JSON.stringify({ steps: [{ title: 'one', instruction: 'do it' }] });
    expect(timedParse(`${' '.repeat(200_000)}\`\`\`json\n${plan}\n\`\`\``)).toMatchObject({ ok: true });
  });
});

describe('the fence scan answers as the pattern it replaced', () => {
  it('on short random texts', () => {
    const runs = process.env.AGENT_CORE_SOAK === '1' ? 50_000 : 2_000;
    const characters = ['`', '`', '`', ' ', '\t', '\n', 'j', '-', '_', '{', '}', '[', ']', '"', 'x'];
    const text = fc.array(fc.constantFrom(...characters), { maxLength: 24 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (reply) => {
        expect(planText(reply)).toBe(planTextByPattern(reply));
      }),
      { numRuns: runs },
    );
  });
});
