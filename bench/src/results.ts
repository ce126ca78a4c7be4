import type { HeapCell } from './workloads/heap-growth.js';
import type { ParallelCell } from './workloads/parallel-tools.js';
import type { PerStepCell } from './workloads/per-step.js';
import type { SessionsCell } from './workloads/sessions.js';
import type { ContentionCell } from './workloads/store-contention.js';
import type { ListCell } from './workloads/store-list.js';
import type { StoreLatencyCell } from './workloads/store-latency.js';

/** Workloads 1 to 4 and 6 of one contender, measured in one child process. */
export interface FrameworkResult {
  id: string;
  label: string;
  version: string;
  perStep: PerStepCell[];
  streaming: PerStepCell[];
  heap?: HeapCell;
  parallel?: ParallelCell;
  sessions?: SessionsCell;
  /** The bare loop's sessions in the same process, for the ratio. */
  bareSessions?: SessionsCell;
  /** Set when the contender could not run. */
  error?: string;
}

/** Workload 5: cold `import()` of one module, in fresh processes. */
export interface ColdImportResult {
  label: string;
  specifiers: string[];
  medianMs: number;
  samples: number;
}

/** Workload 7: one provider parsing a recorded-format SSE stream from a local server. */
export interface StreamParsingResult {
  provider: string;
  format: string;
  events: number;
  bytes: number;
  /** Median time to read the whole stream through the provider, ms. */
  medianMs: number;
  /** The same bytes through fetch, a line splitter and JSON.parse only (the floor). */
  bareMedianMs: number;
  /** Model events the provider yielded. */
  modelEvents: number;
}

/** Workload 8: the session stores side by side, and the PostgreSQL store's list and contention. */
export interface PostgresStoreResult {
  /** Which server the PostgreSQL figures come from. */
  server: string;
  latency: StoreLatencyCell[];
  list: ListCell[];
  contention?: ContentionCell;
}

/** Everything one `pnpm bench` measured. */
export interface BenchResults {
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; os: string; node: string };
  frameworks: FrameworkResult[];
  coldImport: ColdImportResult[];
  streamParsing: StreamParsingResult[];
  /** Workload 8; absent from runs before it existed or that skipped it. */
  stores?: PostgresStoreResult;
  pending: string[];
}
