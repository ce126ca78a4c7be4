import { describe, expect, it } from 'vitest';
import { parseReactReply, type ReactStep } from './parse-react-reply.js';

// Replies a degenerate or manipulated model can write: long runs of one character where the
// parser looks for a fence or trims a tool name. The old patterns backtracked: a fence followed
// by 3,000 spaces took about 40 s (cubic), an Action line of 100,000 dots about 40 s (quadratic),
// blocking the process meanwhile. A synchronous parse cannot be interrupted, so each case checks
// its own time against a bound a thousand times above what a linear parse takes: it catches a
// parser that hangs, it does not measure speed.

const hangBoundMs = 3_000;

function timedParse(reply: string): ReactStep {
  const started = performance.now();
  const step = parseReactReply(reply);
  expect(performance.now() - started, `parsing ${reply.length} characters`).toBeLessThan(hangBoundMs);
  return step;
}

describe('parseReactReply on long runs of one character', () => {
  it('an Action Input that opens a fence and then has 3,000 spaces', () => {
    const step = timedParse(`Thought: go\nAction: read_note\nAction Input: \`\`\`${' '.repeat(3_000)}x`);
    expect(step).toMatchObject({ type: 'malformed', problem: expect.stringContaining('not valid JSON') });
  });

  it('an Action Input fence whose body starts with 20,000 blank lines', () => {
    const step = timedParse(
      `Action: read_note\nAction Input: \`\`\`json\n${'\n \t'.repeat(20_000)}{"a": 1}\n\`\`\``,
    );
    expect(step).toMatchObject({ type: 'action', tool: 'read_note', input: { a: 1 } });
  });

  it('an Action line of 100,000 dots before the tool name ends', () => {
    expect(timedParse(`Action: ${'.'.repeat(100_000)}x y`).type).toBe('action');
  });

  it('an Action line that ends in 100,000 dots', () => {
    expect(timedParse(`Action: read_note ${'.'.repeat(100_000)}`)).toMatchObject({ type: 'action' });
  });
});
