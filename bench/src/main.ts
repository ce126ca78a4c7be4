import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliStart } from './cli-start.js';
import { allFrameworks, reactPending } from './frameworks/all-frameworks.js';
import { median } from './measure.js';
import { benchDatabaseVariable, type BenchServer, startBenchServer } from './postgres-server.js';
import { renderResults } from './report.js';
import type {
  BenchResults,
  ColdImportResult,
  FrameworkResult,
  InflightResult,
  PostgresStoreResult,
  RecordReplayResult,
  StreamParsingResult,
  WorkersResult,
} from './results.js';
import { measureAcpTransport } from './workloads/acp-transport.js';
import { measureSkills } from './workloads/skills.js';

// `pnpm bench`: runs every workload, prints the tables and writes them into README.md.
// Flags: --only id,id (contenders), --workloads 1,6 (workloads 1 to 15, default all), --budget ms
// (per cell, default 1000), --passes n (passes of workloads 1 and 2 for agent-core and the bare
// loop, default 3), --node path (the node binary the contenders run on, e.g. another release),
// --save-as name (also keep the results as results/<name>.json, e.g. `before`), --skip-import, --skip-stream.

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = fileURLToPath(new URL('.', import.meta.url));
const argv = process.argv.slice(2);
const flag = (name: string) => {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : (argv[index + 1] ?? '');
};
const only = flag('--only')?.split(',');
const budget = flag('--budget') ?? '1000';
const saveAs = flag('--save-as');
const workloads = flag('--workloads');
const passes = flag('--passes') ?? '3';
/** The node the contenders run on: this one, unless --node names another. */
const contenderNode = flag('--node') ?? process.execPath;
const runs = (workload: string) => workloads === undefined || workloads.split(',').includes(workload);

function runNode(args: string[], options: { quiet?: boolean; node?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', options.quiet === true ? 'ignore' : 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`node ${args.join(' ')} exited with ${code}`)),
    );
  });
}

async function measureFrameworks(): Promise<FrameworkResult[]> {
  const frameworks = (await allFrameworks()).filter(
    (framework) => only === undefined || only.includes(framework.id),
  );
  const results: FrameworkResult[] = [];
  for (const framework of frameworks) {
    process.stderr.write(`${framework.label} (${framework.version})\n`);
    const out = join(tmpdir(), `agent-core-bench-${process.pid}-${framework.id}.json`);
    try {
      const args = [
        '--expose-gc',
        join(dist, 'child.js'),
        framework.id,
        out,
        budget,
        workloads ?? '',
        passes,
      ];
      await runNode(args, { node: contenderNode });
      results.push(JSON.parse(readFileSync(out, 'utf8')) as FrameworkResult);
    } catch (error) {
      results.push({
        id: framework.id,
        label: framework.label,
        version: framework.version,
        perStep: [],
        streaming: [],
        error: (error as Error).message,
      });
    }
  }
  return results;
}

const importCases: { label: string; specifiers: string[] }[] = [
  { label: 'zod', specifiers: ['zod'] },
  { label: '@agent-core/core', specifiers: ['@agent-core/core'] },
  {
    label: 'core + orchestrator-agentic + provider-mock',
    specifiers: ['@agent-core/core', '@agent-core/orchestrator-agentic', '@agent-core/provider-mock'],
  },
  { label: 'peer: ai', specifiers: ['ai'] },
  { label: 'peer: @mariozechner/pi-agent-core', specifiers: ['@mariozechner/pi-agent-core'] },
  { label: 'peer: @openai/agents', specifiers: ['@openai/agents'] },
];

async function coldImports(samples = 9): Promise<ColdImportResult[]> {
  process.stderr.write('workload 5 (cold import)\n');
  const times = importCases.map(() => [] as number[]);
  // Round robin, so a slow moment of the machine does not land on one module only.
  for (let sample = 0; sample < samples; sample++) {
    for (const [index, entry] of importCases.entries()) {
      const output = await runNode([join(dist, 'import-probe.js'), ...entry.specifiers], { quiet: true });
      times[index]?.push(Number(output.trim().split('\n').pop()));
    }
  }
  return importCases.map((entry, index) => ({
    label: entry.label,
    specifiers: entry.specifiers,
    medianMs: median(times[index] ?? []),
    samples,
  }));
}

async function cliStartRow() {
  process.stderr.write('workload 5 (CLI cold start)\n');
  return cliStart();
}

async function streamParsing(): Promise<StreamParsingResult[]> {
  process.stderr.write('workload 7 (provider stream parsing)\n');
  const out = join(tmpdir(), `agent-core-bench-${process.pid}-stream.json`);
  await runNode([join(dist, 'stream-child.js'), out], { quiet: true });
  return JSON.parse(readFileSync(out, 'utf8')) as StreamParsingResult[];
}

function acpTransport() {
  process.stderr.write('workload 8 (serving over ACP)\n');
  return measureAcpTransport();
}

async function sessionStores(server: string): Promise<PostgresStoreResult | undefined> {
  process.stderr.write('workload 9 (session stores)\n');
  const out = join(tmpdir(), `agent-core-bench-${process.pid}-stores.json`);
  try {
    await runNode([join(dist, 'postgres-child.js'), out, server]);
    return JSON.parse(readFileSync(out, 'utf8')) as PostgresStoreResult;
  } catch (error) {
    process.stderr.write(`workload 9 failed: ${(error as Error).message}\n`);
    return undefined;
  }
}

/** Workload 14: runs as jobs of @agent-core/workers, in a process of its own on the bench's server. */
async function workerPool(): Promise<WorkersResult | undefined> {
  process.stderr.write('workload 14 (runs as jobs of @agent-core/workers)\n');
  const out = join(tmpdir(), `agent-core-bench-${process.pid}-workers.json`);
  try {
    await runNode([join(dist, 'workers-child.js'), out]);
    return JSON.parse(readFileSync(out, 'utf8')) as WorkersResult;
  } catch (error) {
    process.stderr.write(`workload 14 failed: ${(error as Error).message}\n`);
    return undefined;
  }
}

/** Workload 10: what a run holds while it waits for its model, at 0 and 20 steps done, each contender in its own process. */
async function inflight(): Promise<InflightResult[]> {
  process.stderr.write('workload 10 (what a waiting run holds)\n');
  const out: InflightResult[] = [];
  for (const contender of ['bare', 'core-seq', 'core-session-memory']) {
    if (only !== undefined && contender !== 'bare' && !only.includes(contender)) continue;
    for (const steps of [0, 20]) {
      const output = await runNode(
        ['--expose-gc', join(dist, 'inflight-run.js'), contender, String(steps), '2000', '--json'],
        { node: contenderNode },
      );
      out.push(JSON.parse(output.trim().split('\n').pop() ?? '{}') as InflightResult);
    }
  }
  return out;
}

/** Workload 11: skills at start-up, and the prompt tokens progressive disclosure saves. */
function skills() {
  process.stderr.write('workload 11 (skills)\n');
  const shared = process.env.AGENT_CORE_SHARED_DIR ?? join(root, '..', '..', 'shared');
  return measureSkills({ sharedSkills: join(shared, 'fixtures', 'skills') });
}

/** Workload 12: recording per step and replaying a 1,000-step session, in a process of its own. */
async function recordReplay(): Promise<RecordReplayResult> {
  process.stderr.write('workload 12 (record and replay)\n');
  const out = join(tmpdir(), `agent-core-bench-${process.pid}-record-replay.json`);
  await runNode([join(dist, 'record-replay.js'), out], { node: contenderNode });
  return JSON.parse(readFileSync(out, 'utf8')) as RecordReplayResult;
}

function cpuName(): string {
  return cpus()[0]?.model.trim() ?? 'unknown CPU';
}

async function nodeVersion(node: string): Promise<string> {
  return (await runNode(['-p', 'process.versions.node'], { node })).trim();
}

const started = performance.now();
// The PostgreSQL store's rows need a server: one for the whole run, its address handed to each child.
const storesWanted = runs('9') && (only === undefined || only.includes('core-session-postgres'));
const workersWanted = runs('14') && only === undefined;
let database: BenchServer | undefined;
if (storesWanted || workersWanted || only === undefined || only.includes('core-session-postgres')) {
  database = await startBenchServer();
  process.env[benchDatabaseVariable] = database.url;
  process.stderr.write(`PostgreSQL: ${database.description}\n`);
}
let frameworks: FrameworkResult[];
let stores: PostgresStoreResult | undefined;
let workers: WorkersResult | undefined;
try {
  frameworks = await measureFrameworks();
  stores = storesWanted ? await sessionStores(database?.description ?? '') : undefined;
  workers = workersWanted ? await workerPool() : undefined;
} finally {
  await database?.stop();
}
const results: BenchResults = {
  date: new Date().toISOString().slice(0, 10),
  machine: {
    cpu: cpuName(),
    cores: cpus().length,
    memoryGb: totalmem() / 1024 ** 3,
    os: `${platform()} ${release()}`,
    node: contenderNode === process.execPath ? process.versions.node : await nodeVersion(contenderNode),
  },
  frameworks,
  coldImport: argv.includes('--skip-import') || !runs('5') ? [] : await coldImports(),
  cliStart: argv.includes('--skip-import') || !runs('5') ? [] : await cliStartRow(),
  streamParsing: argv.includes('--skip-stream') || !runs('7') ? [] : await streamParsing(),
  ...(runs('8') ? { acpTransport: await acpTransport() } : {}),
  ...(stores === undefined ? {} : { stores }),
  ...(runs('10') ? { inflight: await inflight() } : {}),
  ...(runs('11') ? { skills: await skills() } : {}),
  ...(runs('12') ? { recordReplay: await recordReplay() } : {}),
  ...(workers === undefined ? {} : { workers }),
  pending:
    reactPending === undefined
      ? []
      : [`agent-core react: @agent-core/orchestrator-react is ${reactPending}.`],
};

const resultsDirectory = join(root, 'results');
mkdirSync(resultsDirectory, { recursive: true });
writeFileSync(join(resultsDirectory, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
if (saveAs !== undefined && saveAs !== '') {
  writeFileSync(join(resultsDirectory, `${saveAs}.json`), `${JSON.stringify(results, null, 2)}\n`);
}
const beforePath = join(resultsDirectory, 'before.json');
const before =
  saveAs !== 'before' && existsSync(beforePath)
    ? (JSON.parse(readFileSync(beforePath, 'utf8')) as BenchResults)
    : undefined;
const round1Path = join(resultsDirectory, 'round1.json');
const round1 = existsSync(round1Path)
  ? (JSON.parse(readFileSync(round1Path, 'utf8')) as BenchResults)
  : undefined;
const markdown = renderResults(results, before, round1);
process.stdout.write(`${markdown}\n`);

// A partial run (--only, --workloads, --skip-*) prints its tables but leaves the README's full ones alone.
const partial =
  only !== undefined ||
  contenderNode !== process.execPath ||
  workloads !== undefined ||
  argv.includes('--skip-import') ||
  argv.includes('--skip-stream');
const readmePath = join(root, 'README.md');
const start = '<!-- results:start -->';
const end = '<!-- results:end -->';
if (!partial && existsSync(readmePath)) {
  const readme = readFileSync(readmePath, 'utf8');
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from !== -1 && to > from) {
    writeFileSync(
      readmePath,
      `${readme.slice(0, from + start.length)}\n\n${markdown}\n\n${readme.slice(to)}`,
    );
    process.stderr.write('README.md updated\n');
  }
}
// Workload 13, the studio (its own process, its own servers; it writes its section of README.md itself).
if (runs('13')) process.stdout.write(await runNode([join(dist, 'studio.js')]));
// Workload 15, what the contracts' enforcement costs per step (its own processes; it writes its section of README.md itself).
if (runs('15') && only === undefined) {
  try {
    process.stdout.write(await runNode(['--expose-gc', join(dist, 'contract-cost.js')]));
  } catch (error) {
    process.stderr.write(`workload 15 failed: ${(error as Error).message}\n`);
  }
}
process.stderr.write(`done in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
