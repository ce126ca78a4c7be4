import { describe, expect, it } from 'vitest';
import { parseCliArguments, UsageError } from './parse-args.js';

describe('parseCliArguments', () => {
  it('reads commands, their targets and the flags that override the configuration', () => {
    expect(parseCliArguments(['run', '--no-input', '-t', 'fs, shell', 'clean', 'up'])).toMatchObject({
      command: 'chat',
      prompt: 'clean up',
      noInput: true,
      flags: { tools: ['fs', 'shell'] },
    });
    expect(
      parseCliArguments(['approve', 'abc', 'call_1', 'call_2', '--deny', '--reason', 'no']),
    ).toMatchObject({
      command: 'approve',
      target: 'abc',
      calls: ['call_1', 'call_2'],
      deny: true,
      reason: 'no',
    });
    expect(parseCliArguments(['sessions'])).toMatchObject({ command: 'sessions-list' });
    expect(parseCliArguments(['sessions', 'list', '--all']).limit).toBe(Number.POSITIVE_INFINITY);
    expect(parseCliArguments(['config', 'init', '--project'])).toMatchObject({
      command: 'config-init',
      project: true,
    });
    expect(parseCliArguments(['replay', 'abc', '--tools=recorded', '--update', '--json'])).toMatchObject({
      command: 'replay',
      target: 'abc',
      recordedTools: true,
      update: true,
      json: true,
      flags: {},
    });
    // Any other --tools names the packs today's agent gets, as for chat.
    expect(parseCliArguments(['replay', 'abc', '--tools', 'fs'])).toMatchObject({
      recordedTools: false,
      flags: { tools: ['fs'] },
    });
    expect(
      parseCliArguments(['studio', '--port', '0', '--open', '--store', 'postgres://db/agents']),
    ).toMatchObject({
      command: 'studio',
      port: 0,
      open: true,
      host: undefined,
      flags: { store: 'postgres://db/agents' },
    });
    expect(parseCliArguments(['studio', '--host', '0.0.0.0']).host).toBe('0.0.0.0');
    expect(parseCliArguments(['--data-dir', '/d', '--context-window', '8000']).flags).toEqual({
      dataDir: '/d',
      contextWindow: 8000,
    });
  });

  it('reads the worker and the queue options', () => {
    const worker = parseCliArguments(['worker', '--concurrency', '3', '--store', 'postgres://db/agents']);
    expect(worker).toMatchObject({
      command: 'worker',
      flags: { concurrency: 3, store: 'postgres://db/agents' },
    });
    const queued = parseCliArguments([
      'run',
      '--queue',
      '--no-wait',
      '--operation-id',
      'job-7',
      'hello there',
    ]);
    expect(queued).toMatchObject({
      command: 'chat',
      prompt: 'hello there',
      queue: true,
      noWait: true,
      operationId: 'job-7',
    });
  });

  it('refuses what it cannot use with a message that says what to do, marked as an agent-core error', () => {
    const cases: [string[], RegExp][] = [
      [['approve'], /approve needs a session id/],
      [['sessions', 'show'], /sessions show needs a session id/],
      [['config', 'edit'], /Use: agent-core config init \| show \| validate/],
      [['chat', '--context-window', 'big', 'hi'], /--context-window takes a number of tokens/],
      [['--session', 'x', '--continue'], /Choose one of --session, --continue and --no-session/],
      [['sessions', 'list', '--limit', '0'], /--limit takes a positive number/],
      [
        ['--json'],
        /--json prints JSON: chat, run, approve, replay, worker, approvals, sessions list and sessions show/,
      ],
      [['chat', '--limit', '3', 'hi'], /chat does not take --limit; it takes --provider, /],
      [['sessions', 'rm', 'x', '--yes'], /sessions rm does not take --yes; it takes --store, --data-dir/],
      [['config', 'validate', '--force'], /config validate does not take --force; it takes no options/],
      [['approve', 'x', '--reason', 'no'], /--reason goes with --deny/],
      [['studio', '--port', '70000'], /--port takes a port number from 0/],
      [['studio', 'extra'], /studio takes no arguments/],
      [['chat', '--port', '1', 'hi'], /chat does not take --port/],
      [['studio', '--no-session'], /studio does not take --no-session/],
      [['worker', 'now'], /worker takes no arguments/],
      [['worker', '--concurrency', '0'], /--concurrency takes a positive number of runs/],
      [['--queue'], /the REPL does not take --queue/],
      [['run', '--queue', '--no-session', 'hi'], /cannot be used with --no-session/],
      [['run', '--operation-id', 'x', 'hi'], /--operation-id names what --queue enqueues/],
      [['sessions', 'list', '--no-wait'], /sessions list does not take --no-wait/],
      [['replay'], /replay needs a session id: agent-core replay SESSION/],
      [['replay', 'a', 'b'], /Too many arguments for 'replay': b/],
      [['chat', '--update', 'hi'], /chat does not take --update/],
    ];
    for (const [argv, message] of cases) {
      let thrown: unknown;
      try {
        parseCliArguments(argv);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UsageError);
      expect((thrown as Error).message).toMatch(message);
      expect((thrown as Record<symbol, unknown>)[Symbol.for('agent-core.error')]).toBe(true);
    }
  });
});
