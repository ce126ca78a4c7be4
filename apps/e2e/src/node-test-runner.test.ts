import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The conformance kits are runner-neutral: they take the runner's `test` and `describe`. Proven
// under node:test, in a process of its own, as a user without vitest runs them.

function nodeTest(fixture: string): Promise<{ code: number | null; output: string }> {
  const file = fileURLToPath(new URL(`./__fixtures__/node-test/${fixture}`, import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the conformance kits under node:test', () => {
  it('register their cases with node:test and pass on agentic and the mock', async () => {
    const { code, output } = await nodeTest('kits-pass.node.mjs');
    expect(output).toMatch(/random scripted runs keep every invariant/);
    expect(output).toMatch(/streams text and ends with one done message holding it/);
    expect(output).not.toMatch(/keeps every tool call/);
    expect(output).toMatch(/ℹ fail 0/);
    expect(code).toBe(0);
  });

  it('fail a broken orchestrator with the rule it breaks, the seed and the smallest script', async () => {
    const { code, output } = await nodeTest('kit-fails.node.mjs');
    expect(code).not.toBe(0);
    expect(output).toMatch(/\[unanswered_tool_calls\]/);
    expect(output).toMatch(/seed 42 \(replay with \{ seed: 42 \}\)/);
    expect(output).toMatch(/Smallest failing script/);
  });
});
