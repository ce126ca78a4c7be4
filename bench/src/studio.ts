import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSessionState, type SessionEvent, type SessionStore, silentLogger } from '@agent-core/core';
import { FileSessionStore } from '@agent-core/store-file';
import { PostgresSessionStore } from '@agent-core/store-postgres';
import { startStudio, type StudioServer } from '@agent-core/studio';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { launchBrowser } from '@agent-core/test-support/chromium';
import { median } from './measure.js';
import { startBenchServer } from './postgres-server.js';

// `pnpm --filter @agent-core/bench bench:studio` (and workload 13 of `pnpm bench`): the studio's first
// page of sessions over 100,000 stored sessions, on the file store and on PostgreSQL (target under
// 300 ms), and a run of 1,000 steps rendered in Chromium (target under 1 s); then what Hono adds to a
// request against node:http alone. Figures are medians; the first page is timed as a client on this
// machine sees it (the HTTP round trip on loopback included).

const sessionCount = Number(process.env.STUDIO_BENCH_SESSIONS ?? 100_000);
const rounds = 7;
const silent = { ...silentLogger };

interface SignedIn {
  get(path: string): Promise<Response>;
  cookie: string;
}

async function signIn(studio: StudioServer): Promise<SignedIn> {
  const entry = await fetch(studio.url, { redirect: 'manual' });
  const cookie = (entry.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { cookie, get: (path) => fetch(`${studio.origin}${path}`, { headers: { cookie } }) };
}

async function timed(call: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await call();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`the studio answered ${response.status}`);
  return performance.now() - started;
}

async function timedMedian(call: () => Promise<Response>): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) times.push(await timed(call));
  return median(times);
}

/** Id and time of the n-th session: of fixed length, so a copied file keeps its size. */
function sessionId(prefix: string, index: number): string {
  return `${prefix}-${String(index).padStart(6, '0')}`;
}
function sessionTime(index: number): string {
  return new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString();
}

/** 100,000 sessions on the file store: one stored by the store, copied with its id and times changed. */
async function fileSessions(root: string): Promise<void> {
  const store = new FileSessionStore({ root, logger: silentLogger });
  const template = sessionId('f', 0);
  // Ids, times and titles of one length: a copy keeps the sizes its summary.json records, as the store wrote it.
  const state = newSessionState({
    id: template,
    messages: [{ role: 'user', content: 'Summarise report 000000' }],
  });
  state.createdAt = sessionTime(0);
  state.updatedAt = sessionTime(0);
  await store.save(state, { expectedVersion: 0 });
  await store.list();
  const folder = join(root, template);
  const files = ['session.json', 'summary.json'];
  const texts = await Promise.all(files.map((file) => readFile(join(folder, file), 'utf8')));
  for (let index = 1; index < sessionCount; index += 500) {
    const batch: Promise<void>[] = [];
    for (let offset = index; offset < Math.min(sessionCount, index + 500); offset++) {
      const id = sessionId('f', offset);
      const target = join(root, id);
      batch.push(
        (async () => {
          await mkdir(target);
          await Promise.all(
            files.map((file, position) =>
              writeFile(
                join(target, file),
                (texts[position] as string)
                  .replaceAll(template, id)
                  .replaceAll(sessionTime(0), sessionTime(offset))
                  .replaceAll(
                    'Summarise report 000000',
                    `Summarise report ${String(offset).padStart(6, '0')}`,
                  ),
              ),
            ),
          );
        })(),
      );
    }
    await Promise.all(batch);
  }
}

/** 100,000 sessions in PostgreSQL: one stored by the store, its row copied in one statement. */
async function postgresSessions(url: string, schema: string): Promise<PostgresSessionStore> {
  const store = new PostgresSessionStore({ connectionString: url, schema });
  const template = sessionId('p', 0);
  const state = newSessionState({
    id: template,
    messages: [{ role: 'user', content: 'Summarise the report' }],
  });
  await store.save(state, { expectedVersion: 0 });
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `INSERT INTO ${schema}.agent_core_sessions (id, version, state, status, created_at, updated_at, metadata, message_count, title, pending_approval_count, log_end_seq)
     SELECT 'p-' || lpad(n::text, 6, '0'), version, jsonb_set(state, '{id}', to_jsonb('p-' || lpad(n::text, 6, '0'))), status,
       created_at, to_char(timestamp '2026-01-01' + n * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), metadata, message_count,
       'Summarise report ' || lpad(n::text, 6, '0'), pending_approval_count, log_end_seq
     FROM ${schema}.agent_core_sessions, generate_series(1, $1::int - 1) AS n WHERE id = $2`,
    [sessionCount, template],
  );
  await client.query(`ANALYZE ${schema}.agent_core_sessions`);
  await client.end();
  return store;
}

interface ListFigures {
  store: string;
  storeListMs: number;
  indexMs: number;
  firstPageMs: number;
  searchMs: number;
  deepPageMs: number;
}

/** The studio over `store`: the store's own first page, the index read, then pages from it. */
async function listFigures(name: string, store: SessionStore): Promise<ListFigures> {
  // Three rounds: on the file store each reads every session folder.
  const directTimes: number[] = [];
  for (let round = 0; round < 3; round++)
    directTimes.push(
      await timed(async () => {
        await store.list({ limit: 50 });
        return new Response('');
      }),
    );
  const direct = median(directTimes);
  const started = performance.now();
  const studio = await startStudio({ store, logger: silent, listRefreshMs: 3_600_000 });
  const client = await signIn(studio);
  // The first search waits for the index: every summary read once.
  await timed(() => client.get('/api/sessions?q=report'));
  const indexMs = performance.now() - started;
  const firstPageMs = await timedMedian(() => client.get('/api/sessions?limit=50'));
  const searchMs = await timedMedian(() => client.get('/api/sessions?limit=50&q=report%20099'));
  let cursor = '';
  for (let page = 0; page < 20; page++) {
    const body = (await (await client.get(`/api/sessions?limit=200${cursor}`)).json()) as {
      nextCursor?: string;
    };
    cursor = `&cursor=${encodeURIComponent(body.nextCursor ?? '')}`;
  }
  const deepPageMs = await timedMedian(() => client.get(`/api/sessions?limit=50${cursor}`));
  await studio.close();
  return { store: name, storeListMs: direct, indexMs, firstPageMs, searchMs, deepPageMs };
}

/** A session whose one run made `steps` tool calls, stored through the file store. */
async function longRun(root: string, id: string, steps: number): Promise<FileSessionStore> {
  const store = new FileSessionStore({ root, logger: silentLogger });
  await store.save(newSessionState({ id }), { expectedVersion: 0 });
  const at = (milliseconds: number) => new Date(Date.UTC(2026, 0, 1) + milliseconds).toISOString();
  const usage = { input: 1200, output: 40, cacheRead: 0, cacheWrite: 0, cost: 0.0042 };
  const entries: SessionEvent[] = [
    { type: 'run_started', runId: 'long', at: at(0) },
    { type: 'message', message: { role: 'user', content: `Work through ${steps} files` } },
  ];
  for (let step = 0; step < steps; step++) {
    const call = {
      type: 'toolCall' as const,
      id: `call-${step}`,
      name: 'read_file',
      input: { path: `src/file-${step}.ts` },
    };
    entries.push(
      {
        type: 'message',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: `Reading **file ${step}** next.` }, call],
          stopReason: 'tool_use',
          usage,
          model: 'bench-model',
        },
      },
      {
        type: 'tool_started',
        toolCallId: call.id,
        toolName: call.name,
        input: call.input,
        at: at(step * 900 + 700),
      },
      {
        type: 'message',
        message: {
          role: 'toolResult',
          toolCallId: call.id,
          toolName: call.name,
          content: `export const value${step} = ${step};\n`.repeat(20),
          isError: false,
        },
      },
      { type: 'tool_finished', toolCallId: call.id, toolName: call.name, isError: false, durationMs: 120 },
    );
  }
  entries.push(
    {
      type: 'message',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'All done.' }],
        stopReason: 'end_turn',
        usage,
      },
    },
    { type: 'run_ended', runId: 'long', reason: 'completed', usage, at: at(steps * 900 + 800) },
  );
  for (let index = 0; index < entries.length; index += 1000)
    await store.append(id, entries.slice(index, index + 1000), { operationId: `long-${index}` });
  return store;
}

/** Time from opening a session's page to its timeline and conversation drawn, in Chromium. */
async function renderFigures(
  steps: number,
): Promise<{ steps: number; records: number; renderMs: number; apiMs: number }> {
  const root = await mkdtemp(join(tmpdir(), 'agent-core-bench-studio-run-'));
  try {
    const store = await longRun(root, 'long-run', steps);
    const studio = await startStudio({ store, logger: silent });
    const client = await signIn(studio);
    const apiMs = await timedMedian(() => client.get('/api/sessions/long-run'));
    const browser = await launchBrowser();
    const times: number[] = [];
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(studio.url);
      await page.waitForURL(`${studio.origin}/`);
      for (let round = 0; round < rounds; round++) {
        await page.goto(`${studio.origin}/#/`);
        await page.locator('main h1').waitFor();
        // A string, so the bench's Node types need no DOM library.
        const started = (await page.evaluate(
          "location.hash = '#/sessions/long-run'; performance.now()",
        )) as number;
        await page.locator('section.run li.timeline-row').first().waitFor();
        await page.getByText('All done.').waitFor();
        const ended = (await page.evaluate(
          'new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())))',
        )) as number;
        times.push(ended - started);
      }
    } finally {
      await browser.close();
      await studio.close();
    }
    return { steps, records: steps * 4 + 4, renderMs: median(times), apiMs };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Requests a second through Hono on its Node adapter and through node:http alone, the same JSON answered. */
async function layerFigures(): Promise<{ honoPerSecond: number; nodePerSecond: number }> {
  const body = JSON.stringify({
    sessions: Array.from({ length: 50 }, (_, index) => ({ id: `s-${index}`, title: 'a title' })),
  });
  const app = new Hono();
  app.get('/api/sessions', (context) => context.body(body, 200, { 'content-type': 'application/json' }));
  const honoServer = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  const nodeServer = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(body);
  });
  await new Promise<void>((resolve) => nodeServer.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) =>
    honoServer.listening ? resolve() : honoServer.once('listening', resolve),
  );
  const rate = async (port: number) => {
    const url = `http://127.0.0.1:${port}/api/sessions`;
    const count = 2000;
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next++ < count) await (await fetch(url)).arrayBuffer();
      }),
    );
    return count / ((performance.now() - started) / 1000);
  };
  const hono: number[] = [];
  const node: number[] = [];
  for (let round = 0; round < 3; round++) {
    hono.push(await rate((honoServer.address() as AddressInfo).port));
    node.push(await rate((nodeServer.address() as AddressInfo).port));
  }
  await new Promise((resolve) => honoServer.close(resolve));
  await new Promise((resolve) => nodeServer.close(resolve));
  return { honoPerSecond: median(hono), nodePerSecond: median(node) };
}

const milliseconds = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;

const lists: ListFigures[] = [];
const fileRoot = await mkdtemp(join(tmpdir(), 'agent-core-bench-studio-'));
try {
  process.stderr.write(`storing ${sessionCount} sessions on the file store\n`);
  await fileSessions(fileRoot);
  lists.push(await listFigures('file store', new FileSessionStore({ root: fileRoot, logger: silentLogger })));
} finally {
  await rm(fileRoot, { recursive: true, force: true });
}
const server = await startBenchServer();
try {
  process.stderr.write(`storing ${sessionCount} sessions in ${server.description}\n`);
  const store = await postgresSessions(server.url, 'studio_bench');
  lists.push(await listFigures('PostgreSQL', store));
  await store.close();
} finally {
  await server.stop();
}
process.stderr.write('rendering a run of 1,000 steps in Chromium\n');
const render = await renderFigures(1000);
const layer = await layerFigures();

const lines = [
  `The studio over ${sessionCount.toLocaleString('en')} sessions (medians of ${rounds}):`,
  '',
  "| store | the store's own first page | every summary read (start to first search) | first page | a search | page 21 of 200 rows |",
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...lists.map(
    (row) =>
      `| ${row.store} | ${milliseconds(row.storeListMs)} | ${milliseconds(row.indexMs)} | ${milliseconds(row.firstPageMs)} | ${milliseconds(row.searchMs)} | ${milliseconds(row.deepPageMs)} |`,
  ),
  '',
  `A run of ${render.steps.toLocaleString('en')} steps (${render.records.toLocaleString('en')} log records): the session's JSON in ${milliseconds(render.apiMs)}, its page drawn in Chromium (timeline and conversation) in ${milliseconds(render.renderMs)}.`,
  '',
  `Hono on @hono/node-server: ${Math.round(layer.honoPerSecond).toLocaleString('en')} requests/s; node:http alone: ${Math.round(layer.nodePerSecond).toLocaleString('en')} requests/s (16 clients, a 2 kB JSON answer).`,
];
process.stdout.write(`\n${lines.join('\n')}\n`);
// A full run keeps its figures in the README's studio section; a smaller one (STUDIO_BENCH_SESSIONS) only prints them.
const readmePath = new URL('../README.md', import.meta.url);
const start = '<!-- studio:start -->';
const end = '<!-- studio:end -->';
const readme = await readFile(readmePath, 'utf8');
const from = readme.indexOf(start);
const to = readme.indexOf(end);
if (sessionCount === 100_000 && from !== -1 && to > from)
  await writeFile(
    readmePath,
    `${readme.slice(0, from + start.length)}\nMeasured ${new Date().toISOString().slice(0, 10)}. ${lines.join('\n')}\n${readme.slice(to)}`,
  );
