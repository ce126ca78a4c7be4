import pg from 'pg';
import postgres from 'postgres';
import { quantile } from './measure.js';
import { startBenchServer } from './postgres-server.js';

// `pnpm --filter @agent-core/bench bench:postgres-clients`: the two well-kept PostgreSQL clients, `pg` and
// `postgres`, running the same SQL against the same server: an append as the store makes it (one statement
// that moves a session row on and inserts two log rows), one session at a time and 200 at once, and `list`'s
// first page over 100,000 sessions. Each client runs in turns with the other, three rounds, pools of 10.

type Query = (text: string, values: unknown[]) => Promise<unknown[]>;

const rounds = 3;
const poolSize = 10;

const events = JSON.stringify([
  {
    type: 'message',
    message: {
      role: 'assistant',
      content: [{ type: 'toolCall', id: 'call_1', name: 'add', input: { a: 1, b: 2 } }],
      stopReason: 'tool_use',
    },
  },
  {
    type: 'tool_started',
    toolCallId: 'call_1',
    toolName: 'add',
    input: { a: 1, b: 2 },
    at: '2026-01-01T00:00:00.000Z',
  },
]);

function statements(schema: string) {
  return {
    append: `WITH session AS (
        UPDATE ${schema}.s SET log_end_seq = $2::bigint + 2, message_count = message_count + 1
        WHERE id = $1 AND log_end_seq = $2::bigint RETURNING id
      )
      INSERT INTO ${schema}.e (session_id, seq, event)
      SELECT session.id, $2::bigint + entry.ordinality, entry.value
      FROM session, jsonb_array_elements($3::text::jsonb) WITH ORDINALITY AS entry`,
    list: `SELECT id, status, updated_at, metadata, message_count, title FROM ${schema}.s
      ORDER BY updated_at DESC, id LIMIT 51`,
  };
}

async function prepare(admin: pg.Client, schema: string): Promise<void> {
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.query(`CREATE TABLE ${schema}.s (id text COLLATE "C" PRIMARY KEY, status text NOT NULL,
    updated_at text COLLATE "C" NOT NULL, metadata jsonb NOT NULL, message_count integer NOT NULL,
    title text NOT NULL, log_end_seq bigint NOT NULL)`);
  await admin.query(`CREATE INDEX ON ${schema}.s (updated_at DESC, id)`);
  await admin.query(`CREATE TABLE ${schema}.e (session_id text COLLATE "C" NOT NULL, seq bigint NOT NULL,
    event jsonb NOT NULL, PRIMARY KEY (session_id, seq))`);
  await admin.query(`INSERT INTO ${schema}.s SELECT 's' || n, 'idle',
      to_char(timestamp '2026-01-01' + (n / 20) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      '{}'::jsonb, 1, 'task ' || n, 0 FROM generate_series(0, 99999) AS n`);
  await admin.query(`ANALYZE ${schema}.s`);
}

async function measure(query: Query, schema: string) {
  const sql = statements(schema);
  const ends = new Map<string, number>();
  const append = async (id: string) => {
    const end = ends.get(id) ?? 0;
    await query(sql.append, [id, end, events]);
    ends.set(id, end + 2);
  };
  for (let index = 0; index < 100; index++) await append('s0');
  const alone: number[] = [];
  for (let index = 0; index < 500; index++) {
    const start = performance.now();
    await append('s0');
    alone.push(performance.now() - start);
  }
  const together: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 200 }, async (_, session) => {
      for (let step = 0; step < 10; step++) {
        const start = performance.now();
        await append(`s${session + 1}`);
        together.push(performance.now() - start);
      }
    }),
  );
  const togetherSeconds = (performance.now() - started) / 1000;
  for (let index = 0; index < 100; index++) await query(sql.list, []);
  let listed = 0;
  const listStart = performance.now();
  while (performance.now() - listStart < 2000) {
    await query(sql.list, []);
    listed++;
  }
  return {
    aloneP50: quantile(alone, 0.5),
    aloneP99: quantile(alone, 0.99),
    togetherPerSecond: 2000 / togetherSeconds,
    togetherP99: quantile(together, 0.99),
    listPerSecond: listed / ((performance.now() - listStart) / 1000),
  };
}

const server = await startBenchServer();
const admin = new pg.Client({ connectionString: server.url });
await admin.connect();
const results: Record<string, Awaited<ReturnType<typeof measure>>[]> = { pg: [], postgres: [] };
try {
  for (let round = 0; round < rounds; round++) {
    for (const client of ['pg', 'postgres'] as const) {
      const schema = `clients_${client}`;
      await prepare(admin, schema);
      if (client === 'pg') {
        const pool = new pg.Pool({ connectionString: server.url, max: poolSize });
        pool.on('error', () => {});
        results.pg?.push(
          await measure(async (text, values) => (await pool.query(text, values)).rows, schema),
        );
        await pool.end();
      } else {
        const sql = postgres(server.url, { max: poolSize, onnotice: () => {} });
        results.postgres?.push(
          await measure((text, values) => sql.unsafe(text, values as never[], { prepare: true }), schema),
        );
        await sql.end();
      }
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    }
  }
} finally {
  await admin.end();
  await server.stop();
}
const median = (values: number[]) => quantile(values, 0.5);
const lines = [
  `Server: ${server.description}; pools of ${poolSize}; medians of ${rounds} alternating rounds.`,
  '',
];
lines.push(
  '| client | append alone p50 / p99 | 200 sessions at once: appends/s, p99 | list first page, per second |',
);
lines.push('| --- | --- | --- | --- |');
for (const [client, runs] of Object.entries(results)) {
  lines.push(
    `| \`${client}\` | ${median(runs.map((run) => run.aloneP50)).toFixed(2)} / ${median(runs.map((run) => run.aloneP99)).toFixed(2)} ms | ${Math.round(median(runs.map((run) => run.togetherPerSecond)))}, ${median(runs.map((run) => run.togetherP99)).toFixed(1)} ms | ${Math.round(median(runs.map((run) => run.listPerSecond)))} |`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
