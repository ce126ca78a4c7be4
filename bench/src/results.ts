import type { SkillsResult } from './workloads/skills.js';
import type { HeapCell } from './workloads/heap-growth.js';
import type { ParallelCell } from './workloads/parallel-tools.js';
import type { PerStepCell } from './workloads/per-step.js';
import type { ManySessionsCell } from './workloads/many-sessions.js';
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
  /** Workload 6's 10,000-session row (the `SessionManager` contender only), with the bare loop's in the same process. */
  manySessions?: ManySessionsCell;
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

/** Workload 5, the CLI: one command's wall time from spawn to exit, in fresh processes. */
export interface CliStartResult {
  label: string;
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

/** One side of workload 8: the agent driven in process, or through `serveAcp` in a child process. */
export interface AcpTransportSide {
  /** Median time from the model making its first delta to the reader getting it, ms. */
  firstDeltaMs: number;
  /** Median and 99th percentile of every paced delta's time to its reader, ms. */
  medianMs: number;
  p99Ms: number;
  /** Deltas per second read in the flood, first made to last read (median round). */
  deltasPerSecond: number;
}

/** Workload 8: what serving an agent over the Agent Client Protocol adds. */
export interface AcpTransportResult {
  rounds: number;
  paced: number;
  flood: number;
  inProcess: AcpTransportSide;
  acp: AcpTransportSide;
}

/** Workload 9: the session stores side by side, and the PostgreSQL store's list and contention. */
export interface PostgresStoreResult {
  /** Which server the PostgreSQL figures come from. */
  server: string;
  latency: StoreLatencyCell[];
  list: ListCell[];
  contention?: ContentionCell;
}

/** Workload 10: what one run holds while it waits for its model (`inflight-run.js`). */
export interface InflightResult {
  contender: string;
  /** Tool steps done before the model stops answering. */
  steps: number;
  /** Runs waiting at once; the heap they hold after full collections, divided by their number. */
  runs: number;
  bytesPerRun: number;
}

/** Workload 12, recording: what a recording cassette adds per step, in memory and written to a file after every reply (CPU time). */
export interface RecordingCell {
  steps: number;
  /** The plain run's CPU time per step, µs. */
  plainUsPerStep: number;
  /** Added per step by recording into memory, µs of CPU. */
  memoryUsPerStep: number;
  /** Added per step by recording into a file rewritten after every reply, µs of CPU. */
  fileUsPerStep: number;
  /** Rounds counted (medians of). */
  samples: number;
}

/** Workload 12, replay: a 1,000-step conversation replayed from a stored session or a cassette file. */
export interface ReplayCell {
  source: string;
  steps: number;
  /** `sessionCassette` (a stored session read as a cassette); 0 for a file. */
  readMs: number;
  /** `cassette()`: a file read and parsed, and the entries indexed. */
  loadMs: number;
  /** The agent's run on the cassette, its tool run for real. */
  runMs: number;
  totalMs: number;
  /** CPU time of read, load and run together (the collector's threads included). */
  cpuMs: number;
  /** The same run on the scripted model, for scale. */
  plainRunMs: number;
}

/** Workload 12: record and replay (`@agent-core/cassette`). */
export interface RecordReplayResult {
  recording: RecordingCell[];
  replay: ReplayCell[];
}

/** Everything one `pnpm bench` measured. */
export interface BenchResults {
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; os: string; node: string };
  frameworks: FrameworkResult[];
  coldImport: ColdImportResult[];
  /** Absent in results from before the CLI row. */
  cliStart?: CliStartResult[];
  streamParsing: StreamParsingResult[];
  /** Absent in results from before workload 8 existed, or when it was not run. */
  acpTransport?: AcpTransportResult;
  /** Workload 9; absent from runs before it existed or that skipped it. */
  stores?: PostgresStoreResult;
  /** Workload 10; absent from runs before it existed or that skipped it. */
  inflight?: InflightResult[];
  /** Workload 11; absent from runs before it existed or that skipped it. */
  skills?: SkillsResult;
  /** Workload 12; absent from runs before it existed or that skipped it. */
  recordReplay?: RecordReplayResult;
  /** Workload 14; absent from runs before it existed or that skipped it. */
  workers?: WorkersResult;
  pending: string[];
}

/** Workload 14: runs as jobs of @agent-core/workers (see `workloads/worker-pool.ts`). */
export interface WorkersResult {
  processes: number;
  concurrency: number;
  leaseMs: number;
  /** Enqueue to first model request, one run at a time into idle workers. */
  idlePickup: { p50Ms: number; p99Ms: number; samples: number };
  /** Runs per second of the workers draining 1,000 runs queued before they started. */
  backlog: { runs: number; runsPerSecond: number };
  /** Enqueue to first model request of each of 1,000 runs enqueued at once, and runs per second over them. */
  burst: { runs: number; p50Ms: number; p99Ms: number; runsPerSecond: number };
  /** From a worker's SIGKILL mid-run to the run's next model request in another worker. */
  recovery: { samplesMs: number[]; medianMs: number; maxMs: number };
}
