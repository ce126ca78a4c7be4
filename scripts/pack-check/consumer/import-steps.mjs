// Imports the combination's packages one at a time, as a user adding them would,
// and checks after each import what it registered and which packages it loaded:
// core alone registers nothing and loads no SDK; each plugin registers exactly
// its own names and loads no other plugin.
import { readFileSync } from 'node:fs';
import { startRecordingLoads } from './record-loads.mjs';

const combination = JSON.parse(readFileSync(new URL('./combination.json', import.meta.url), 'utf8'));
const recorder = startRecordingLoads();
const problems = [];
const steps = [];

const sorted = (/** @type {string[]} */ names) => [...names].sort();
const same = (/** @type {string[]} */ left, /** @type {string[]} */ right) =>
  JSON.stringify(sorted(left)) === JSON.stringify(sorted(right));

const core = await import('@agent-core/core');
const registered = () => ({
  providers: core.listProviders(),
  orchestrators: core.listOrchestrators(),
  toolPacks: core.listToolPacks(),
});
let before = registered();
let loadedBefore = await recorder.loadedPackages();
const coreAllowed = ['@agent-core/core', ...combination.coreDependencies];
const coreLoads = loadedBefore.filter((name) => !coreAllowed.includes(name));
if (coreLoads.length > 0) problems.push(`importing @agent-core/core loaded ${coreLoads.join(', ')}`);
for (const kind of ['providers', 'orchestrators', 'toolPacks']) {
  if (before[kind].length > 0)
    problems.push(`importing @agent-core/core registered ${kind}: ${before[kind].join(', ')}`);
}
steps.push({ import: '@agent-core/core', loaded: loadedBefore, registered: before });

for (const name of combination.packages) {
  if (name === '@agent-core/core') continue;
  await import(name);
  const after = registered();
  const loaded = await recorder.loadedPackages();
  const newlyLoaded = loaded.filter((item) => !loadedBefore.includes(item));
  const expected = combination.registrations[name] ?? { providers: [], orchestrators: [], toolPacks: [] };
  for (const kind of ['providers', 'orchestrators', 'toolPacks']) {
    const added = after[kind].filter((item) => !before[kind].includes(item));
    if (!same(added, expected[kind]))
      problems.push(`importing ${name} registered ${kind} [${added}], expected [${expected[kind]}]`);
  }
  const otherPlugins = newlyLoaded.filter((item) => item.startsWith('@agent-core/') && item !== name);
  if (otherPlugins.length > 0) problems.push(`importing ${name} loaded ${otherPlugins.join(', ')}`);
  steps.push({ import: name, loaded: newlyLoaded, registered: after });
  before = after;
  loadedBefore = loaded;
}

const final = registered();
for (const kind of ['providers', 'orchestrators', 'toolPacks']) {
  if (!same(final[kind], combination.expected[kind]))
    problems.push(
      `after every import, ${kind} are [${final[kind]}], expected exactly [${combination.expected[kind]}]`,
    );
}
console.log(JSON.stringify({ steps }));
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
