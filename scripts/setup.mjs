// Sets the repo up on a machine that has only Node and npm: installs the
// pinned pnpm through npx, installs the workspace, and builds every package.
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`agent-core needs Node 20.19 or newer; this is Node ${process.versions.node}.`);
  process.exit(1);
}
const { packageManager } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const pnpm = `npx --yes ${packageManager}`;
const run = (command) =>
  execSync(command, {
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
  });
run(`${pnpm} install ${process.env.CI ? '--frozen-lockfile' : ''}`);
run(`${pnpm} run build`);
