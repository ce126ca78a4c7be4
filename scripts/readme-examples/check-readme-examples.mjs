#!/usr/bin/env node
// Every README example compiles and runs, so none can rot: takes each ```ts
// block of the root README, of every README under packages/* and apps/*, and
// of every guide in docs/,
// writes it as a module into a temporary project whose node_modules link to
// the built workspace packages, typechecks them all with the repository's
// strict settings (noUncheckedIndexedAccess included), then runs each one that
// can run offline. See extract-examples.mjs for the markers a README can use.
//
// Usage: node scripts/readme-examples/check-readme-examples.mjs [--keep] [README.md ...]
//   --keep  keep the temporary project (its path is printed) to look into a failure
// The packages must be built first (`npm run build`; `npm test` builds them).
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractExamples, importedSpecifiers, packageOf } from './extract-examples.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const runTimeoutMs = 60_000;

/** The documents to check: the root README, one per package and app, and the guides in docs/, found anew on every run. */
function readmes() {
  const found = [join(root, 'README.md')];
  for (const group of ['packages', 'apps']) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      const readme = join(root, group, entry.name, 'README.md');
      if (entry.isDirectory() && existsSync(readme)) found.push(readme);
    }
  }
  const docs = join(root, 'docs');
  if (existsSync(docs)) {
    for (const entry of readdirSync(docs).sort()) if (entry.endsWith('.md')) found.push(join(docs, entry));
  }
  return found;
}

/** Workspace packages by name, to link into the temporary project. */
function workspacePackages() {
  const packages = new Map();
  for (const group of ['packages', 'apps']) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      const manifest = join(root, group, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(manifest)) continue;
      const { name } = JSON.parse(readFileSync(manifest, 'utf8'));
      packages.set(name, join(root, group, entry.name));
    }
  }
  return packages;
}

/** Where the workspace has a third-party package installed: the root, or any package's own node_modules. */
function installedPackage(name) {
  const owners = [root];
  for (const group of ['packages', 'apps']) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      if (entry.isDirectory()) owners.push(join(root, group, entry.name));
    }
  }
  for (const owner of owners) {
    const candidate = join(owner, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  return undefined;
}

function link(target, path) {
  mkdirSync(join(path, '..'), { recursive: true });
  if (!existsSync(path)) symlinkSync(target, path, 'dir');
}

function keyOf(example) {
  return `${example.readme}#${example.index}`;
}

function slugOf(readme) {
  return (
    relative(root, readme)
      .replace(/\/?README\.md$/, '')
      .replace(/\.md$/, '')
      .replace(/[^a-zA-Z0-9]+/g, '-') || 'root'
  );
}

function main(argv) {
  const keep = argv.includes('--keep');
  const chosen = argv
    .filter((argument) => !argument.startsWith('--'))
    .map((path) => join(process.cwd(), path));
  const problems = [];
  const examples = [];
  for (const readme of chosen.length > 0 ? chosen : readmes()) {
    const where = relative(root, readme);
    try {
      for (const example of extractExamples(readFileSync(readme, 'utf8'))) {
        examples.push({ ...example, readme: where, file: `${slugOf(readme)}-${example.index}.ts` });
      }
    } catch (error) {
      problems.push({ key: where, text: `${where}: ${error.message}` });
    }
  }

  const project = mkdtempSync(join(tmpdir(), 'agent-core-readme-examples-'));
  try {
    const checked = examples.filter((example) => example.mode !== 'skip');
    writeProject(project, checked, problems);
    if (problems.length === 0 && checked.length > 0) typecheck(project, checked, problems);
    let ran = 0;
    if (problems.length === 0) {
      for (const example of checked.filter((candidate) => candidate.mode === 'run')) {
        ran++;
        run(project, example, problems);
      }
    }
    for (const example of examples.filter((candidate) => candidate.mode !== 'run')) {
      const what = example.mode === 'skip' ? 'skipped' : 'typecheck only';
      console.log(
        `  ${example.readme}:${example.line} example ${example.index}: ${what} (${example.reason})`,
      );
    }
    // One example can fail in several places; count examples (or whole READMEs), not messages.
    const failed = new Set(problems.map((problem) => problem.key)).size;
    for (const problem of problems) console.error(`\n${problem.text}`);
    console.log(
      `\nREADME examples: ${examples.length} found, ${checked.length} typechecked, ${ran} run, ` +
        `${examples.length - checked.length} skipped.`,
    );
    console.log(`readme-examples: ${Math.max(0, checked.length - failed)} passed, ${failed} failed`);
    return failed === 0 ? 0 : 1;
  } finally {
    if (keep) console.log(`Kept the temporary project: ${project}`);
    else rmSync(project, { recursive: true, force: true });
  }
}

function writeProject(project, examples, problems) {
  mkdirSync(join(project, 'src'));
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ type: 'module', private: true }, null, 2)}\n`,
  );
  writeFileSync(
    join(project, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          // The repository's own settings (tsconfig.base.json), as strict as its sources.
          target: 'ES2022',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          moduleDetection: 'force',
          strict: true,
          noUncheckedIndexedAccess: true,
          noImplicitOverride: true,
          exactOptionalPropertyTypes: false,
          verbatimModuleSyntax: true,
          isolatedModules: true,
          skipLibCheck: true,
          types: ['node'],
          rootDir: 'src',
          outDir: 'out',
        },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
  );
  const workspace = workspacePackages();
  const needed = new Set(['@types/node']);
  for (const example of examples) {
    writeFileSync(join(project, 'src', example.file), example.code);
    for (const specifier of importedSpecifiers(example.code)) needed.add(packageOf(specifier));
  }
  for (const name of needed) {
    const target = workspace.get(name) ?? installedPackage(name);
    if (target === undefined) {
      const users = examples.filter((example) =>
        importedSpecifiers(example.code).some((specifier) => packageOf(specifier) === name),
      );
      for (const example of users) {
        problems.push({
          key: keyOf(example),
          text: `${example.readme}:${example.line} example ${example.index}: imports '${name}', which no workspace package installs.`,
        });
      }
      continue;
    }
    link(target, join(project, 'node_modules', name));
    // A package whose types ship apart (`pg` and `@types/pg`): its types come along when the workspace has them.
    const types = name.startsWith('@types/')
      ? undefined
      : `@types/${name.replace(/^@/, '').replace('/', '__')}`;
    const typesTarget = types === undefined ? undefined : installedPackage(types);
    if (types !== undefined && typesTarget !== undefined)
      link(typesTarget, join(project, 'node_modules', types));
  }
}

function typecheck(project, examples, problems) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', project, '--pretty', 'false'], {
    cwd: project,
    encoding: 'utf8',
  });
  if (result.status === 0) return;
  const byFile = new Map(examples.map((example) => [example.file, example]));
  const output = `${result.stdout}${result.stderr}`.trim();
  for (const line of output.split('\n')) {
    // src/<file>.ts(line,column): error TSxxxx: message
    const match = /^src\/([^(]+)\((\d+),(\d+)\): (.*)$/.exec(line);
    const example = match === null ? undefined : byFile.get(match[1]);
    if (match === null || example === undefined) {
      if (line.trim() !== '') problems.push({ key: 'typecheck', text: `typecheck: ${line}` });
      continue;
    }
    const readmeLine = example.line + Number(match[2]) - 1;
    problems.push({
      key: keyOf(example),
      text: `${example.readme}:${readmeLine}:${match[3]} example ${example.index}: ${match[4]}`,
    });
  }
  if (problems.length === 0) problems.push({ key: 'typecheck', text: `typecheck failed:\n${output}` });
}

function run(project, example, problems) {
  const environment = { ...process.env };
  // Offline by construction: no example may reach a real model.
  delete environment.ANTHROPIC_API_KEY;
  delete environment.OPENAI_API_KEY;
  const script = join(project, 'out', example.file.replace(/\.ts$/, '.js'));
  const result = spawnSync(process.execPath, [script], {
    // The temporary project itself: a folder with a package.json, as a user's would have.
    cwd: project,
    encoding: 'utf8',
    env: environment,
    timeout: runTimeoutMs,
  });
  if (result.status === 0) return;
  const why =
    result.error?.message ?? (result.signal ? `killed by ${result.signal}` : `exit code ${result.status}`);
  const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-20).join('\n');
  problems.push({
    key: keyOf(example),
    text:
      `${example.readme}:${example.line} example ${example.index} failed when run (${why}). ` +
      'Fix it, or mark it <!-- example:typecheck-only: why --> if it needs a key, a network or a server.\n' +
      output,
  });
}

process.exitCode = main(process.argv.slice(2));
