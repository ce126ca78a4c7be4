import { addRunJob } from './enqueue-operation.js';
import type { WorkersDatabase } from './workers-database.js';

/**
 * Gives a job back to every open operation that has none a worker could
 * take: a job deleted by a worker that had been taken for dead (it woke and
 * completed the job another worker then held), or one graphile-worker gave up
 * on after its attempts. Operations younger than `minimumAgeMs` are left
 * alone (their job may be on its way). One worker does it at a time (an
 * advisory lock of the schema); resolves how many operations got a job.
 */
export async function requeueOrphans(database: WorkersDatabase, minimumAgeMs: number): Promise<number> {
  return database.transaction(async (client) => {
    const { rows: locked } = await client.query(
      'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS mine',
      [`agent_core_workers_orphans:${database.schema}`],
    );
    if ((locked[0] as { mine: boolean }).mine !== true) return 0;
    const { rows } = await client.query(
      `SELECT operation.operation_id, operation.session_id FROM ${database.quoted}.agent_core_operations operation
       WHERE operation.state IN ('queued', 'running')
       AND operation.enqueued_at < now() - $1 * interval '1 millisecond'
       AND NOT EXISTS (
         SELECT 1 FROM ${database.quoted}._private_jobs job
         WHERE job.key = operation.operation_id AND job.attempts < job.max_attempts)
       LIMIT 100`,
      [minimumAgeMs],
    );
    for (const row of rows as { operation_id: string; session_id: string }[])
      await addRunJob(database, client, row.operation_id, row.session_id, 0);
    return rows.length;
  });
}
