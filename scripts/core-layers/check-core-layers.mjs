#!/usr/bin/env node
// Core's folders form layers, for types as much as for values: a folder may
// import a lower one, never the reverse. This finds every cycle between
// core's folders (type imports and dynamic imports included) and fails when
// there is one, naming the imports that close it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// The folder to check: core's src, or another given as the first argument (the script's own tests do).
const source = resolve(process.argv[2] ?? join(root, 'packages/core/src'));

/** Every source file of core, without tests and test helpers; the root barrel is not a layer. */
function sourceFiles(folder) {
  const files = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'test-support' || entry.name === '__fixtures__') continue;
      files.push(...sourceFiles(path));
    } else if (
      entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.test.ts') &&
      !entry.name.endsWith('.d.ts')
    ) {
      files.push(path);
    }
  }
  return files;
}

// `import ... from`, `import type ... from`, `export ... from`, `import('...')`, and bare `import '...'`.
const importPattern =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*${},\s]+?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The folder of core a file belongs to, or undefined for the root barrel. */
function folderOf(file) {
  const parts = relative(source, file).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/** The imports of `text` with comments left out, so an example in a comment is not an import. */
function importsOf(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found = [];
  for (const match of code.matchAll(importPattern)) found.push(match[1] ?? match[2]);
  return found;
}

/** Folder → folder → the imports (file → file) that make the arrow. */
const arrows = new Map();
for (const file of sourceFiles(source)) {
  const from = folderOf(file);
  if (from === undefined) continue;
  for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
    if (!specifier.startsWith('.')) continue;
    const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
    const to = folderOf(target);
    if (to === undefined || to === from) continue;
    if (!arrows.has(from)) arrows.set(from, new Map());
    const byTarget = arrows.get(from);
    if (!byTarget.has(to)) byTarget.set(to, []);
    byTarget.get(to).push(`${relative(source, file)} -> ${relative(source, target)}`);
  }
}

/** Strongly connected components (Tarjan): each one of more than one folder is a cycle. */
function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const found = cycles(arrows);
if (found.length === 0) {
  console.log(`core layers: ${arrows.size} folders, no import cycle between them (type imports included).`);
  process.exit(0);
}
console.error(
  'core layers: folders of packages/core/src import each other in a cycle (type imports included).',
);
console.error(
  'Move the shared type or function down to the lowest folder that needs it, so imports point one way.\n',
);
for (const component of found) {
  console.error(`cycle: ${component.join(', ')}`);
  const members = new Set(component);
  for (const from of component)
    for (const [to, imports] of arrows.get(from) ?? [])
      if (members.has(to)) {
        console.error(`  ${from} -> ${to}:`);
        for (const line of imports.slice(0, 4)) console.error(`    ${line}`);
        if (imports.length > 4) console.error(`    ... and ${imports.length - 4} more`);
      }
}
process.exit(1);
