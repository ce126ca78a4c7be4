import { describe, expect, it } from 'vitest';
import { AppendBatcher } from './append-batcher.js';

/** A batcher whose statements wait until the test lets each one finish, recording what each carried. */
function recordingBatcher(options: { concurrency: number; failWhen?: (ids: string[]) => Error | undefined }) {
  const statements: { ids: string[]; finish: () => void }[] = [];
  const batcher = new AppendBatcher<string>({
    concurrency: options.concurrency,
    maxBatch: 3,
    retryAlone: (error) => !(error as Error).message.includes('connection'),
    run: (itemsJson) => {
      const items = JSON.parse(itemsJson) as { i: number; id: string }[];
      const ids = items.map((item) => item.id);
      return new Promise((resolve, reject) => {
        statements.push({
          ids,
          finish: () => {
            const failure = options.failWhen?.(ids);
            if (failure !== undefined) reject(failure);
            else resolve(new Map(items.map((item) => [item.i, `ok ${item.id}`])));
          },
        });
      });
    },
  });
  return { batcher, statements };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('AppendBatcher', () => {
  it('sends an append at once when no statement is in flight, and gathers those that arrive meanwhile', async () => {
    const { batcher, statements } = recordingBatcher({ concurrency: 1 });
    const first = batcher.submit('{"id":"a"}');
    expect(statements.map((statement) => statement.ids)).toEqual([['a']]);
    const rest = ['b', 'c', 'd', 'e'].map((id) => batcher.submit(`{"id":"${id}"}`));
    statements[0]?.finish();
    expect(await first).toBe('ok a');
    await tick();
    // At most maxBatch (3) per statement, one statement in flight.
    expect(statements.map((statement) => statement.ids)).toEqual([['a'], ['b', 'c', 'd']]);
    statements[1]?.finish();
    await tick();
    expect(statements.map((statement) => statement.ids)).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
    statements[2]?.finish();
    expect(await Promise.all(rest)).toEqual(['ok b', 'ok c', 'ok d', 'ok e']);
  });

  it('tries each item alone after a batch fails for data, so only the item at fault fails', async () => {
    const { batcher, statements } = recordingBatcher({
      concurrency: 1,
      failWhen: (ids) => (ids.includes('bad') ? new Error('invalid input syntax') : undefined),
    });
    const first = batcher.submit('{"id":"first"}');
    const batch = ['x', 'bad', 'y'].map((id) =>
      batcher.submit(`{"id":"${id}"}`).catch((error: Error) => error.message),
    );
    statements[0]?.finish();
    await first;
    await tick();
    statements[1]?.finish();
    await tick();
    for (const statement of statements.slice(2)) statement.finish();
    expect(await Promise.all(batch)).toEqual(['ok x', 'invalid input syntax', 'ok y']);
    expect(statements.slice(2).map((statement) => statement.ids)).toEqual([['x'], ['bad'], ['y']]);
  });

  it('fails every item of a batch whose connection dropped, without sending them again', async () => {
    const { batcher, statements } = recordingBatcher({
      concurrency: 1,
      failWhen: (ids) => (ids.length > 1 ? new Error('connection terminated') : undefined),
    });
    const first = batcher.submit('{"id":"first"}');
    const batch = ['x', 'y'].map((id) =>
      batcher.submit(`{"id":"${id}"}`).catch((error: Error) => error.message),
    );
    statements[0]?.finish();
    await first;
    await tick();
    statements[1]?.finish();
    expect(await Promise.all(batch)).toEqual(['connection terminated', 'connection terminated']);
    expect(statements).toHaveLength(2);
  });
});
