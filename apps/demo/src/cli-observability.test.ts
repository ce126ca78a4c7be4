import { describe, expect, it } from 'vitest';
import { startCompatibleServer } from './test-support/compatible-server.js';
import { runCli } from './test-support/run-cli.js';

/** The stderr lines that are JSON log records. */
function logRecords(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

// Each test starts the binary as a process: generous on a loaded machine.
describe('agent-core logs and traces', { timeout: 30_000 }, () => {
  it('--log-level info writes the run as JSON lines with trace and span ids on stderr; nothing without it', async () => {
    const { code, stdout, stderr } = await runCli(['chat', '--log-level', 'info', 'What is 6 * 7?']);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n').at(-1)).toBe('6 * 7 = 42.');
    const records = logRecords(stderr);
    expect(records.map((record) => record.message)).toEqual([
      'run started',
      'model call ended',
      'tool call ended',
      'model call ended',
      'run ended',
    ]);
    for (const record of records) {
      expect(record.level).toBe('info');
      expect(record.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(record.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(new Set(records.map((record) => record.traceId)).size).toBe(1);
    expect(records.find((record) => record.message === 'tool call ended')).toMatchObject({
      tool: 'calculator',
      isError: false,
    });

    const quiet = await runCli(['chat', 'What is 6 * 7?']);
    expect(logRecords(quiet.stderr)).toEqual([]);
    const errorsOnly = await runCli(['chat', '--log-level', 'error', 'What is 6 * 7?']);
    expect(logRecords(errorsOnly.stderr)).toEqual([]);
    const bad = await runCli(['chat', '--log-level', 'loud', 'hi']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--log-level takes debug, info, warn, error; got 'loud'.");
  });

  it('--trace prints the span tree of the run with durations on stderr when it ends', async () => {
    const { code, stdout, stderr } = await runCli(['chat', '--trace', 'What is 6 * 7?']);
    expect(code).toBe(0);
    expect(stdout).not.toContain('invoke_agent');
    const tree = stderr
      .slice(stderr.indexOf('trace:\n') + 'trace:\n'.length)
      .trimEnd()
      .split('\n');
    const duration = String.raw`\d+(\.\d+)? (ms|s)`;
    expect(tree).toHaveLength(4);
    expect(tree[0]).toMatch(new RegExp(`^invoke_agent agent-core  ${duration}  usage\\.input_tokens=\\d+`));
    expect(tree[1]).toMatch(new RegExp(`^├─ chat offline-mock  ${duration}`));
    expect(tree[2]).toMatch(new RegExp(`^├─ execute_tool calculator  ${duration}  tool\\.call\\.id=`));
    expect(tree[3]).toMatch(new RegExp(`^└─ chat offline-mock  ${duration}`));
  });

  it('--trace in the REPL prints one tree per run', async () => {
    const { code, stderr } = await runCli(['--trace'], { stdin: 'What is 6 * 7?\n' });
    expect(code).toBe(0);
    expect(stderr.match(/^invoke_agent agent-core /gm)).toHaveLength(1);
  });

  it('--help lists the session, log, trace and context flags and the sessions command', async () => {
    const { stdout } = await runCli(['--help']);
    for (const flag of [
      '--session <id|new>',
      '--data-dir <dir>',
      '--log-level <level>',
      '--trace',
      '--no-compact',
      'agent-core sessions list',
      'agent-core approvals',
      '/help',
    ])
      expect(stdout).toContain(flag);
  });

  it('a model with a known context window runs through the window; --no-compact runs without it', async () => {
    const server = await startCompatibleServer();
    try {
      for (const extra of [[], ['--no-compact']]) {
        const { code, stdout } = await runCli([
          'chat',
          '--base-url',
          server.url,
          '--model',
          'gpt-4o',
          ...extra,
          'What is 6*7?',
        ]);
        expect(code).toBe(0);
        expect(stdout.trimEnd().split('\n').at(-1)).toBe('The answer is 42');
      }
    } finally {
      await server.close();
    }
  });
});
