import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './measure.js';
import type { CliStartResult } from './results.js';

const cli = fileURLToPath(new URL('../../apps/demo/dist/cli.js', import.meta.url));

/** The commands timed, each in a fresh process: node alone first, the reference. */
const cases: { label: string; args: string[] }[] = [
  { label: 'node -e 0', args: ['-e', '0'] },
  { label: 'agent-core --help', args: [cli, '--help'] },
  { label: 'agent-core chat (offline model, stored session)', args: [cli, 'chat', 'What is 2 + 2?'] },
  {
    label: 'agent-core chat --no-session (offline model)',
    args: [cli, 'chat', '--no-session', 'What is 2 + 2?'],
  },
];

function timeProcess(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`node ${args.join(' ')} exited with ${code}`)),
    );
  });
}

/**
 * Workload 5, the CLI's cold start: the wall time from spawning a process to
 * its exit, median of `samples` fresh processes per command, round robin with
 * `node -e 0` in the same run so the machine's load hits every row alike. The
 * CLI runs with a home of its own and no API key (the offline model).
 */
export async function cliStart(samples = 9): Promise<CliStartResult[]> {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run pnpm build first.`);
  const home = mkdtempSync(join(tmpdir(), 'agent-core-bench-cli-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_STATE_HOME: join(home, 'state'),
  };
  try {
    const times = cases.map(() => [] as number[]);
    // One warm-up round, so the first sample does not pay for a cold disk cache.
    for (const entry of cases) await timeProcess(entry.args, env);
    for (let sample = 0; sample < samples; sample++) {
      for (const [index, entry] of cases.entries()) times[index]?.push(await timeProcess(entry.args, env));
    }
    return cases.map((entry, index) => ({
      label: entry.label,
      medianMs: median(times[index] ?? []),
      samples,
    }));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
