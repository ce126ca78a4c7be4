import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { contenderById, fullCollection, waitingScenario } from './waiting-runs.js';

// What a waiting run holds, object by object: a heap snapshot after warm-up and another with
// `sessions` runs waiting for their model after `steps` steps; the objects only the second has
// are the runs', counted by type and constructor name (and, with --owners, by the object and
// field that holds each), divided by the number of runs:
//   node --expose-gc dist/inflight-snapshot.js <contender id | bare> <steps done> [sessions] [rows] [--owners]

const args = process.argv.slice(2);
const owners = args.includes('--owners');
const [id, steps, count, rowCount] = args.filter((arg) => arg !== '--owners');
if (id === undefined || steps === undefined)
  throw new Error(
    'usage: node --expose-gc dist/inflight-snapshot.js <contender id | bare> <steps done> [sessions] [rows] [--owners]',
  );
const collect = fullCollection();
const framework = await contenderById(id);
const sessions = Number(count ?? 1000);
const scenario = (blocked: boolean) => waitingScenario(Number(steps), blocked);

interface HeapSnapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** Takes a snapshot of this heap after full collections. */
function snapshot(): HeapSnapshot {
  collect?.();
  collect?.();
  const file = join(tmpdir(), `agent-core-inflight-${process.pid}-${Date.now()}.heapsnapshot`);
  writeHeapSnapshot(file);
  const taken = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot;
  rmSync(file);
  return taken;
}

/** The ids of every object in a snapshot. */
function idsOf(taken: HeapSnapshot): Set<number> {
  const fields = taken.snapshot.meta.node_fields;
  const width = fields.length;
  const idAt = fields.indexOf('id');
  const ids = new Set<number>();
  for (let index = 0; index < taken.nodes.length; index += width)
    ids.add(taken.nodes[index + idAt] as number);
  return ids;
}

for (let index = 0; index < 300; index++) await framework.run(scenario(false));
const known = idsOf(snapshot());
const waiting: Promise<unknown>[] = [];
for (let index = 0; index < sessions; index++) waiting.push(framework.run(scenario(true)));
await new Promise((resolve) => setTimeout(resolve, 500));
const after = snapshot();

const meta = after.snapshot.meta;
const width = meta.node_fields.length;
const typeAt = meta.node_fields.indexOf('type');
const nameAt = meta.node_fields.indexOf('name');
const idAt = meta.node_fields.indexOf('id');
const sizeAt = meta.node_fields.indexOf('self_size');
const edgeCountAt = meta.node_fields.indexOf('edge_count');
const edgeWidth = meta.edge_fields.length;
const edgeTypeAt = meta.edge_fields.indexOf('type');
const edgeNameAt = meta.edge_fields.indexOf('name_or_index');
const edgeToAt = meta.edge_fields.indexOf('to_node');
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const nodes = after.nodes;

function label(node: number): string {
  const type = nodeTypes[nodes[node + typeAt] as number] ?? '?';
  let name = after.strings[nodes[node + nameAt] as number] ?? '?';
  // Strings and code have many distinct names: one row per type.
  if (type === 'string' || type === 'concatenated string' || type === 'sliced string' || type === 'code')
    name = '';
  if (type === 'closure') name = `${name}()`;
  if (name.length > 50) name = `${name.slice(0, 47)}...`;
  return `${type} ${name}`.trim();
}

// The first holder of each new object (an edge other than a weak one), to say who keeps it.
const holder = new Map<number, string>();
const holderNode = new Map<number, number>();
if (owners) {
  let edge = 0;
  for (let node = 0; node < nodes.length; node += width) {
    const edges = nodes[node + edgeCountAt] as number;
    for (let index = 0; index < edges; index++, edge += edgeWidth) {
      const to = after.edges[edge + edgeToAt] as number;
      if (holder.has(to)) continue;
      const edgeType = edgeTypes[after.edges[edge + edgeTypeAt] as number] ?? '?';
      if (edgeType === 'weak' || edgeType === 'shortcut') continue;
      const raw = after.edges[edge + edgeNameAt] as number;
      const edgeName =
        edgeType === 'element' || edgeType === 'hidden' ? `[${raw}]` : (after.strings[raw] ?? '?');
      holder.set(to, `${label(node)} .${edgeType === 'element' ? '[]' : edgeName}`);
      holderNode.set(to, node);
    }
  }
}

const rows = new Map<string, { bytes: number; count: number }>();
for (let node = 0; node < nodes.length; node += width) {
  if (known.has(nodes[node + idAt] as number)) continue;
  // The probe's own set of known ids is the one object this large.
  if ((nodes[node + sizeAt] as number) > 1_000_000) continue;
  // Element stores and contexts say little alone: their holder's holder too.
  const parent = holderNode.get(node);
  const grand = parent === undefined ? undefined : holder.get(parent);
  const key = owners
    ? `${label(node)} ← ${holder.get(node) ?? 'root'}${grand === undefined ? '' : ` ← ${grand}`}`
    : label(node);
  const entry = rows.get(key) ?? { bytes: 0, count: 0 };
  entry.bytes += nodes[node + sizeAt] as number;
  entry.count++;
  rows.set(key, entry);
}
const sorted = [...rows].sort((left, right) => right[1].bytes - left[1].bytes);
const total = sorted.reduce((sum, [, entry]) => sum + entry.bytes, 0) / sessions;
process.stdout.write(
  `${id}: ${(total / 1024).toFixed(2)} KB of new objects per run waiting after ${steps} steps (${sessions} runs)\n`,
);
for (const [key, entry] of sorted.slice(0, Number(rowCount ?? 40))) {
  const bytes = entry.bytes / sessions;
  if (bytes < 1) continue;
  process.stdout.write(
    `${bytes.toFixed(0).padStart(7)} B ${(entry.count / sessions).toFixed(2).padStart(6)} × ${key}\n`,
  );
}
process.exit(0);
