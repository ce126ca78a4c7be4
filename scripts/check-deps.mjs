// Enforces the dependency arrow: core <- plugins <- apps. A plugin may import
// only @agent-core/core among our packages, core imports none of them, and no
// import reaches into another package's src/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const problems = [];

function sourceFiles(directory) {
  const files = [];
  for (const entry of readdirSync(directory)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(entry)) files.push(path);
  }
  return files;
}

function check(packageDirectory, allowed) {
  // A folder still being created has no manifest yet; there is nothing to check.
  if (!existsSync(join(packageDirectory, 'package.json'))) return;
  const manifest = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8'));
  const declared = new Set(
    Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.devDependencies }),
  );
  for (const file of sourceFiles(join(packageDirectory, 'src'))) {
    const text = readFileSync(file, 'utf8');
    // Tests may use the mock provider, the users' own testing tool, and the private test-support packages
    // (`@agent-core/test-*`: a PostgreSQL server, the providers' wire formats), as dev dependencies.
    const isTest = /\.test\.ts$|test-support/.test(file);
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*)['"](@agent-core\/[^'"]+)['"]/g)) {
      const specifier = match[1];
      const name = specifier.split('/').slice(0, 2).join('/');
      const where = relative(root, file);
      if (specifier.includes('/src/')) problems.push(`${where}: deep import '${specifier}'`);
      const testOnly =
        isTest && (name === '@agent-core/provider-mock' || name.startsWith('@agent-core/test-'));
      if (name !== manifest.name && !allowed(name) && !testOnly)
        problems.push(`${where}: may not import ${name}`);
      if (name !== manifest.name && !declared.has(name))
        problems.push(`${where}: imports undeclared ${name}`);
    }
  }
}

for (const dir of readdirSync(join(root, 'packages'))) {
  const directory = join(root, 'packages', dir);
  if (dir === 'core') check(directory, () => false);
  else check(directory, (name) => name === '@agent-core/core');
}
for (const dir of readdirSync(join(root, 'apps'))) check(join(root, 'apps', dir), () => true);

if (problems.length > 0) {
  console.error(`Dependency rules broken:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  process.exit(1);
}
console.log('dependency rules: ok');
