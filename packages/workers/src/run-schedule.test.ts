import type { LogFields, Logger } from '@agent-core/core';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';
import { describe, expect, it } from 'vitest';
import { type Executions, noteWorker, storeWith } from './test-support/scripted-agent.js';
import { until } from '@agent-core/test-support/until';

const { server } = usePostgresServer();

/** A logger keeping what a schedule did with each tick. */
function tickLog(): { logger: Logger; ticks: { tick: string; what: 'enqueued' | 'skipped' }[] } {
  const ticks: { tick: string; what: 'enqueued' | 'skipped' }[] = [];
  const note = (message: string, fields?: LogFields) => {
    if (message === 'a schedule enqueued its run')
      ticks.push({ tick: String(fields?.operationId).split(':').slice(2).join(':'), what: 'enqueued' });
    if (message.startsWith('a schedule tick was skipped'))
      ticks.push({ tick: String(fields?.tick), what: 'skipped' });
  };
  const ignore = () => {};
  return { ticks, logger: { debug: ignore, info: note, warn: note, error: ignore } };
}

describe('schedules', () => {
  it('fire once per tick with two workers, and never run two of a schedule’s runs at once', async () => {
    const schema = server.newSchema();
    const store = await storeWith();
    const executions: Executions = { notes: [] };
    const log = tickLog();
    const schedule = { name: 'report', cron: '* * * * *', prompt: 'the report', backfillMs: 5 * 60_000 };
    const make = () =>
      noteWorker(
        server.url,
        schema,
        store,
        executions,
        { latencyMs: 20 },
        { schedules: [schedule], logger: log.logger },
      );
    // The schedule has been known for five minutes and no worker served it: the ticks since are due (backfilled).
    const workers = [make(), make()];
    try {
      // A worker that served the schedule once, five minutes ago, as far as graphile-worker can tell.
      const earlier = make();
      await earlier.start();
      await earlier.stop();
      await server.admin.query(
        `UPDATE "${schema}"._private_known_crontabs SET known_since = now() - interval '5 minutes', last_execution = NULL`,
      );
      await Promise.all(workers.map((worker) => worker.start()));
      await until(() => log.ticks.length >= 4, 'the backfilled ticks to be handled');
      const { rows } = await server.admin.query(
        `SELECT operation_id, state, started_at, finished_at FROM "${schema}".agent_core_operations
         WHERE schedule = 'report' ORDER BY position`,
      );
      const byTick = new Map<string, number>();
      for (const { tick } of log.ticks) byTick.set(tick, (byTick.get(tick) ?? 0) + 1);
      expect([...byTick.values()].every((count) => count === 1)).toBe(true);
      expect(log.ticks.filter((tick) => tick.what === 'enqueued').length).toBe(rows.length);
      expect(rows.length).toBeGreaterThanOrEqual(1);
      await until(async () => {
        const { rows: open } = await server.admin.query(
          `SELECT 1 FROM "${schema}".agent_core_operations WHERE state IN ('queued', 'running')`,
        );
        return open.length === 0;
      }, 'the schedule’s runs to end');
      const { rows: runs } = await server.admin.query(
        `SELECT started_at, finished_at, state FROM "${schema}".agent_core_operations WHERE schedule = 'report' ORDER BY started_at`,
      );
      for (let index = 1; index < runs.length; index++)
        expect(runs[index].started_at.getTime()).toBeGreaterThanOrEqual(
          runs[index - 1].finished_at.getTime(),
        );
      expect(runs.every((run: { state: string }) => run.state === 'finished')).toBe(true);
      const sessions = (await store.list()).sessions;
      expect(sessions.length).toBe(runs.length);
      expect(sessions.every((session) => session.metadata.schedule === 'report')).toBe(true);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
    }
  });

  it('refuses a bad cron or two schedules of one name at start, taking no job', async () => {
    const schema = server.newSchema();
    const store = await storeWith();
    const worker = (schedules: { name: string; cron: string; prompt: string }[]) =>
      noteWorker(server.url, schema, store, { notes: [] }, {}, { schedules });
    await expect(
      worker([{ name: 'report', cron: 'every morning', prompt: 'x' }]).start(),
    ).rejects.toMatchObject({
      code: 'invalid_config',
    });
    await expect(
      worker([
        { name: 'report', cron: '0 7 * * *', prompt: 'x' },
        { name: 'report', cron: '0 8 * * *', prompt: 'y' },
      ]).start(),
    ).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(
      worker([{ name: 'bad name', cron: '0 7 * * *', prompt: 'x' }]).start(),
    ).rejects.toMatchObject({
      code: 'invalid_config',
    });
  });
});
