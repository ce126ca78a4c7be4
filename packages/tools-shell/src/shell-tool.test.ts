import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ConfigError, getToolPack, listToolPacks, type ToolContext } from '@agent-core/core';
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { type ShellToolOptions, shellTool } from './index.js';

let directory: string;
const startedPids = new Set<number>();

beforeEach(async () => {
  directory = await realpath(await mkdtemp(join(tmpdir(), 'agent-core-tools-shell-')));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(directory, { recursive: true, force: true });
});
afterAll(async () => {
  // Whatever a test started must be gone by now; kill leftovers so a failure cannot leak them.
  const alive = [];
  for (const pid of startedPids) {
    if (!(await isGone(pid, 1))) {
      alive.push(pid);
      process.kill(pid, 'SIGKILL');
    }
  }
  expect(alive).toEqual([]);
});

function context(signal = new AbortController().signal): ToolContext {
  return { signal, toolCallId: 'call-1', agent: undefined };
}

function run(
  input: { command: string; timeoutMs?: number },
  options: ShellToolOptions = {},
  signal?: AbortSignal,
) {
  return shellTool({ cwd: directory, killGraceMs: 300, ...options }).execute(input, context(signal));
}

/**
 * True once the process no longer runs. A zombie counts as gone: it has
 * exited and only waits for init to reap it, which some container inits do
 * only every few seconds.
 */
async function isGone(pid: number, attempts = 200): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      process.kill(pid, 0);
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state === 'Z') return true;
    } catch {
      return true;
    }
    await delay(25);
  }
  return false;
}

async function readPid(path: string): Promise<number> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const text = await readFile(path, 'utf8').catch(() => '');
    if (text.endsWith('\n')) {
      const pid = Number(text.trim());
      startedPids.add(pid);
      return pid;
    }
    await delay(10);
  }
  throw new Error(`no pid in ${path}`);
}

describe('results', () => {
  test('stdout and exit code 0', async () => {
    expect(await run({ command: 'echo hello; echo world' })).toBe(
      'exit code 0\n<stdout>\nhello\nworld\n</stdout>\n<stderr></stderr>',
    );
  });

  test('a non-zero exit is a normal result that states the code', async () => {
    expect(await run({ command: 'echo partial; echo broken >&2; exit 3' })).toBe(
      'exit code 3 (the command failed)\n<stdout>\npartial\n</stdout>\n<stderr>\nbroken\n</stderr>',
    );
  });

  test('a shell killed by a signal says which', async () => {
    expect(await run({ command: 'kill -TERM $$' })).toMatch(/^killed by signal SIGTERM\n/);
  });

  test('commands run in cwd, with stdin empty', async () => {
    await mkdir(join(directory, 'sub'));
    expect(await run({ command: 'pwd; echo "$PWD"; cat' }, { cwd: join(directory, 'sub') })).toBe(
      `exit code 0\n<stdout>\n${directory}/sub\n${directory}/sub\n</stdout>\n<stderr></stderr>`,
    );
  });

  test('each stream is capped, keeping head and tail, with a note of the bytes dropped', async () => {
    const output = (await run({ command: 'seq 1 20000; seq 1 5 >&2' }, { maxOutputBytes: 1000 })) as string;
    const stdout = output.slice(output.indexOf('<stdout>\n') + 9, output.indexOf('</stdout>'));
    expect(stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(stdout.endsWith('19999\n20000\n')).toBe(true);
    // seq 1 20000 prints 108894 bytes; 1000 are kept.
    expect(stdout).toContain(
      '[... 107894 bytes dropped: showing the first 500 and the last 500 bytes of 108894 ...]',
    );
    expect(output).toContain('<stderr>\n1\n2\n3\n4\n5\n</stderr>');
  });
});

describe('environment', () => {
  beforeEach(() => {
    vi.stubEnv('AGENT_CORE_TEST_SECRET', 'sk-do-not-leak');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test('a secret in the agent environment is not visible by default', async () => {
    const output = await run({ command: 'echo "[$AGENT_CORE_TEST_SECRET]"; env' });
    expect(output).toContain('[]');
    expect(output).not.toContain('sk-do-not-leak');
    expect(output).toContain(`PATH=${process.env.PATH}`);
  });

  test('env adds variables and inheritEnv passes everything', async () => {
    expect(await run({ command: 'echo "$GREETING"' }, { env: { GREETING: 'hi there' } })).toContain(
      'hi there',
    );
    expect(await run({ command: 'echo "$AGENT_CORE_TEST_SECRET"' }, { inheritEnv: true })).toContain(
      'sk-do-not-leak',
    );
  });
});

describe('stopping', () => {
  test('a timeout kills the shell and the grandchild it started, and says so', async () => {
    const pidFile = join(directory, 'pid');
    const result = run({ command: `sleep 30 & echo $! > ${pidFile}; wait` }, { timeoutMs: 1000 });
    const pid = await readPid(pidFile);
    await expect(result).rejects.toThrow(
      'The command timed out after 1000 ms and was killed, with every process it started.',
    );
    expect(await isGone(pid)).toBe(true);
  });

  test('the model may shorten the timeout but not lengthen it', async () => {
    await expect(run({ command: 'sleep 30', timeoutMs: 600_000 }, { timeoutMs: 200 })).rejects.toThrow(
      'timed out after 200 ms',
    );
    await expect(run({ command: 'sleep 30', timeoutMs: 200 }, { timeoutMs: 600_000 })).rejects.toThrow(
      'timed out after 200 ms',
    );
  });

  test('output before a timeout is kept in the error', async () => {
    await expect(run({ command: 'echo started; sleep 30' }, { timeoutMs: 1000 })).rejects.toThrow(
      'Output so far:\n<stdout>\nstarted\n</stdout>',
    );
  });

  test('an abort through the signal kills the whole group', async () => {
    const pidFile = join(directory, 'pid');
    const controller = new AbortController();
    const result = run({ command: `sleep 30 & echo $! > ${pidFile}; wait` }, {}, controller.signal);
    const pid = await readPid(pidFile);
    controller.abort();
    await expect(result).rejects.toThrow(
      'The command was aborted and killed, with every process it started.',
    );
    expect(await isGone(pid)).toBe(true);
  });

  test('a process that ignores SIGTERM gets SIGKILL after the grace time', async () => {
    const pidFile = join(directory, 'pid');
    const result = run(
      { command: `trap '' TERM; sleep 30 & echo $! > ${pidFile}; wait` },
      { timeoutMs: 1000, killGraceMs: 200 },
    );
    const pid = await readPid(pidFile);
    await expect(result).rejects.toThrow('timed out after 1000 ms');
    expect(await isGone(pid)).toBe(true);
  });

  test('a background process left behind by a finished command is stopped', async () => {
    const pidFile = join(directory, 'pid');
    const output = await run({ command: `sleep 30 > /dev/null 2>&1 & echo $! > ${pidFile}; echo done` });
    expect(output).toContain('exit code 0\n<stdout>\ndone\n</stdout>');
    expect(await isGone(await readPid(pidFile))).toBe(true);
  });

  test('no abort listener is left on the signal, however the command ends', async () => {
    const controller = new AbortController();
    for (let index = 0; index < 15; index++) await run({ command: 'true' }, {}, controller.signal);
    await expect(run({ command: 'sleep 30' }, { timeoutMs: 100 }, controller.signal)).rejects.toThrow(
      'timed out',
    );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  test('an already aborted signal runs nothing', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped before start'));
    await expect(run({ command: `touch ${join(directory, 'ran')}` }, {}, controller.signal)).rejects.toThrow(
      'stopped before start',
    );
    await expect(readFile(join(directory, 'ran'))).rejects.toThrow();
  });
});

describe('configuration', () => {
  test('a missing cwd is a clear error, at the factory and at run time', async () => {
    expect(() => shellTool({ cwd: join(directory, 'missing') })).toThrow(ConfigError);
    expect(() => shellTool({ cwd: join(directory, 'missing') })).toThrow(
      `shellTool option 'cwd' is '${join(directory, 'missing')}', which is not an existing directory.`,
    );
    await mkdir(join(directory, 'gone'));
    const tool = shellTool({ cwd: join(directory, 'gone') });
    await rm(join(directory, 'gone'), { recursive: true });
    await expect(tool.execute({ command: 'echo hi' }, context())).rejects.toThrow(
      `The working directory '${join(directory, 'gone')}' does not exist any more; the command was not run.`,
    );
  });

  test('invalid options throw ConfigError; a missing shell is a clear error', async () => {
    expect(() => shellTool({ cwd: directory, timeoutMs: 0 })).toThrow(
      "shellTool option 'timeoutMs' is 0; use a positive whole number up to 2147483647.",
    );
    expect(() => shellTool({ cwd: directory, killGraceMs: 2 ** 31 })).toThrow(ConfigError);
    await expect(run({ command: 'echo hi' }, { shell: join(directory, 'no-such-shell') })).rejects.toThrow(
      `Could not start the shell '${join(directory, 'no-such-shell')}'`,
    );
  });

  test('the tool is named shell, has risk execute and a core timeout beyond its own', () => {
    const tool = shellTool({ cwd: directory, timeoutMs: 10_000, killGraceMs: 500 });
    expect(tool.name).toBe('shell');
    expect(tool.risk).toBe('execute');
    expect(tool.timeoutMs).toBeGreaterThan(10_000 + 500);
  });

  test('importing registers the shell pack; cwd is read when the factory runs, not at import', async () => {
    vi.resetModules();
    const cwd = vi.spyOn(process, 'cwd');
    await import('./index.js');
    expect(cwd).not.toHaveBeenCalled();
    expect(listToolPacks()).toContain('shell');
    cwd.mockReturnValue(directory);
    const [tool] = getToolPack('shell', {});
    expect(cwd).toHaveBeenCalledTimes(1);
    expect(tool?.name).toBe('shell');
    expect(await tool?.execute({ command: 'pwd' }, context())).toContain(`<stdout>\n${directory}\n</stdout>`);
  });
});
