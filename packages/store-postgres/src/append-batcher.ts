/** One append waiting for its statement: its item's JSON (with `"i"` filled in by the batch) and how to answer it. */
interface Waiting<Outcome> {
  /** The item's JSON object without its index: `{"id":…}`, given as text so its events are serialised once. */
  body: string;
  resolve(outcome: Outcome): void;
  reject(error: unknown): void;
}

/** Options of `AppendBatcher`. */
export interface AppendBatcherOptions<Outcome> {
  /** Runs one statement for the items (a JSON array of objects each with `"i"`, its index) and gives one outcome per index. */
  run(itemsJson: string, count: number): Promise<Map<number, Outcome>>;
  /** Statements in flight at once; appends that arrive meanwhile wait and go together in the next one. */
  concurrency: number;
  /** Appends per statement at most. */
  maxBatch: number;
  /** Whether a batch's failure may concern one item only, so each item is tried alone to find it. */
  retryAlone(error: unknown): boolean;
}

/**
 * Group commit for appends: with no statement waiting it sends an append at
 * once, alone; while `concurrency` statements are in flight, the appends that
 * arrive queue and leave together in the next statement, one transaction and
 * one commit for all of them. Under load a commit carries many sessions'
 * steps, so appends per second grow with the load instead of queueing behind
 * one commit each; alone, an append waits for nothing.
 */
export class AppendBatcher<Outcome> {
  readonly #options: AppendBatcherOptions<Outcome>;
  #queue: Waiting<Outcome>[] = [];
  #inFlight = 0;

  constructor(options: AppendBatcherOptions<Outcome>) {
    this.#options = options;
  }

  /** Queues one item and resolves with its outcome, or rejects with what failed its statement. */
  submit(body: string): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      this.#queue.push({ body, resolve, reject });
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#inFlight < this.#options.concurrency && this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#options.maxBatch);
      this.#inFlight++;
      void this.#send(batch).finally(() => {
        this.#inFlight--;
        this.#pump();
      });
    }
  }

  async #send(batch: Waiting<Outcome>[]): Promise<void> {
    let outcomes: Map<number, Outcome>;
    try {
      outcomes = await this.#options.run(itemsJson(batch), batch.length);
    } catch (error) {
      if (batch.length > 1 && this.#options.retryAlone(error)) {
        // One item's data may have failed the statement for all: alone, each fails or succeeds on its own.
        await Promise.all(batch.map((waiting) => this.#send([waiting])));
        return;
      }
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    for (const [index, waiting] of batch.entries()) {
      const outcome = outcomes.get(index);
      if (outcome === undefined)
        waiting.reject(new Error(`the append statement gave no outcome for item ${index}`));
      else waiting.resolve(outcome);
    }
  }
}

function itemsJson(batch: readonly Waiting<unknown>[]): string {
  let text = '[';
  for (const [index, waiting] of batch.entries()) {
    if (index > 0) text += ',';
    text += `{"i":${index},${waiting.body.slice(1)}`;
  }
  return `${text}]`;
}
