// The long versions of the reliability tests: every provider fault point, many more property
// and fuzz runs. `npm test` runs the short versions; this sets AGENT_CORE_SOAK=1 and runs the
// tests of the packages that have long versions, again even when turbo has them cached.
// Pass --seed=N to replay the property runs of a failure with the seed fast-check printed.
import { execSync } from 'node:child_process';

const packages = [
  '@agent-core/e2e',
  '@agent-core/orchestrator-agentic',
  '@agent-core/provider-anthropic',
  '@agent-core/provider-openai',
  '@agent-core/orchestrator-react',
  '@agent-core/orchestrator-plan-execute',
  '@agent-core/store-file',
  '@agent-core/demo',
];
const seed = process.argv.find((argument) => argument.startsWith('--seed='))?.slice('--seed='.length);
const filters = packages.map((name) => `--filter=${name}`).join(' ');
const run = (command, env = {}) =>
  execSync(command, {
    stdio: 'inherit',
    env: { ...process.env, ...env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
  });
const started = Date.now();
// The builds the tests need (cached when nothing changed), then the tests alone, never from the
// cache: a soak run draws new random cases each time.
run(`npx turbo run build ${filters}`);
run(`npx turbo run test --only --force --concurrency=2 ${filters}`, {
  AGENT_CORE_SOAK: '1',
  ...(seed === undefined ? {} : { AGENT_CORE_SEED: seed }),
});
console.log(`== soak run passed in ${Math.round((Date.now() - started) / 1000)} s`);
