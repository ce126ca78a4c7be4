import type { BenchResults } from './results.js';
import { number, table } from './report-format.js';

// Workload 9 in the report: the session stores side by side, list, and the 4-process contention.

/** The store rows' target: with PostgreSQL, 1,000 concurrent sessions add at most 20 ms at p99 per step. */
export function storeTargets(results: BenchResults): { target: string; measured: string; pass: boolean }[] {
  const postgres = results.stores?.latency.find((cell) => cell.id === 'core-session-postgres');
  if (postgres === undefined) return [];
  const sessions = results.frameworks.find((framework) => framework.id === 'core-session-postgres')?.sessions;
  return [
    {
      target:
        'PostgreSQL store: 1,000 concurrent sessions add at most 20 ms at p99 per step (workload 9, model 0.5 to 1.5 s)',
      measured: `p99 ${number(postgres.thousand.addedP99Ms, 2)} ms (p50 ${number(postgres.thousand.addedP50Ms, 2)} ms; one session alone: p99 ${number(postgres.one.addedP99Ms, 2)} ms${sessions === undefined ? '' : `; workload 6's 25 to 75 ms model: p99 ${number(sessions.addedP99Ms, 2)} ms`})`,
      pass: postgres.thousand.addedP99Ms <= 20,
    },
  ];
}

/** Workload 9's tables, or nothing when the run did not measure it. */
export function renderStores(results: BenchResults): string[] {
  const stores = results.stores;
  if (stores === undefined) return [];
  const parts: string[] = [];
  const perStep = new Map(results.frameworks.map((framework) => [framework.id, framework]));
  parts.push(
    `### 8. Session stores side by side\n\nA \`SessionManager\` run over each store, every message and tool call written before the next step. Per step: workload 1's cost (N = 10 / 100 / 1,000, one session, no model latency); then the added latency per step (as in workload 6: from when a reply was due to the next model request) of one session of 200 steps with a model answering in 25 to 75 ms, and of 1,000 sessions of 10 steps at once (arriving over 1 s, counted from 3 s) with a model answering in 0.5 to 1.5 s, the load of 1,000 live conversations. PostgreSQL: ${stores.server}.\n`,
  );
  parts.push(
    table(
      [
        'store',
        'cost per step, N = 10 / 100 / 1,000',
        'one session: added p50 / p99',
        '1,000 sessions: added p50 / p99',
        '1,000 sessions: steps/s',
      ],
      stores.latency.map((cell) => {
        const cost = perStep.get(cell.id)?.perStep ?? [];
        return [
          cell.id === 'bare'
            ? 'no store: the bare loop, same process'
            : cell.label.replace('agent-core SessionManager, ', ''),
          cost.length === 0 ? 'n/a' : cost.map((step) => `${number(step.microsPerStep)} µs`).join(' / '),
          `${number(cell.one.addedP50Ms, 2)} / ${number(cell.one.addedP99Ms, 2)} ms`,
          `${number(cell.thousand.addedP50Ms, 2)} / ${number(cell.thousand.addedP99Ms, 2)} ms`,
          number(cell.thousand.stepsPerSecond, 0),
        ];
      }),
    ),
  );
  parts.push(
    '`list` (pages of 50, newest first): the first page and a page from the middle (p50 of 200 calls), and sessions listed per second walking pages of 500 (at most 20,000).\n',
  );
  parts.push(
    table(
      ['store', 'sessions', 'made by', 'first page p50 / p99', 'middle page p50', 'walk'],
      stores.list.map((cell) => [
        cell.store,
        number(cell.sessions, 0),
        cell.made,
        `${number(cell.firstPageP50Ms, 2)} / ${number(cell.firstPageP99Ms, 2)} ms`,
        `${number(cell.middlePageP50Ms, 2)} ms`,
        `${number(cell.walkSessionsPerSecond, 0)} sessions/s`,
      ]),
    ),
  );
  const contention = stores.contention;
  if (contention !== undefined) {
    const attempts = contention.processes * contention.promptsPerProcess;
    const refused = Object.entries(contention.refused)
      .map(([code, count]) => `${number(count, 0)} ${code}`)
      .join(', ');
    parts.push(
      `${contention.processes} processes × ${number(contention.promptsPerProcess, 0)} prompts on ${contention.sessions} sessions of one PostgreSQL store, each process prompting random sessions through its own \`SessionManager\` (orchestrator-agentic, provider-mock, one tool call and an answer per prompt), then every history read back and checked prompt by prompt.\n`,
    );
    parts.push(
      table(
        [
          'prompts',
          'completed',
          'refused',
          'lost',
          'duplicated',
          'interleaved',
          'invalid histories',
          'wall time',
          'runs/s',
        ],
        [
          [
            number(attempts, 0),
            number(contention.completed, 0),
            refused === '' ? '0' : refused,
            number(contention.lost, 0),
            number(contention.duplicated, 0),
            number(contention.interleaved, 0),
            number(contention.invalid, 0),
            `${number(contention.wallMs / 1000, 1)} s`,
            number(contention.completed / (contention.wallMs / 1000), 0),
          ],
        ],
      ),
    );
  }
  return parts;
}
