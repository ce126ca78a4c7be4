// CommonJS users: `require()` every package of the combination (Node >= 20.19
// loads ES modules through the exports map's `default` condition), check the
// registrations, then check that `import()` gives the very same module, so
// CommonJS and ESM code in one app share one copy of each package.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const combination = JSON.parse(readFileSync(join(__dirname, 'combination.json'), 'utf8'));
const problems = [];
const required = new Map();
for (const name of combination.packages) {
  try {
    const namespace = require(name);
    if (Object.keys(namespace).length === 0) problems.push(`require('${name}') gave an empty module`);
    required.set(name, namespace);
  } catch (error) {
    problems.push(`require('${name}') failed: ${error.code ?? ''} ${error.message.split('\n')[0]}`);
  }
}
const core = required.get('@agent-core/core');
if (core !== undefined) {
  const lists = {
    providers: core.listProviders(),
    orchestrators: core.listOrchestrators(),
    toolPacks: core.listToolPacks(),
  };
  for (const kind of Object.keys(lists)) {
    const actual = [...lists[kind]].sort().join();
    const expected = [...combination.expected[kind]].sort().join();
    if (actual !== expected)
      problems.push(`after require(), ${kind} are [${actual}], expected [${expected}]`);
  }
}
(async () => {
  for (const [name, namespace] of required) {
    const imported = await import(name);
    if (imported !== namespace)
      problems.push(`require('${name}') and import('${name}') gave different modules`);
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(`required ${required.size} packages from CommonJS`);
})();
