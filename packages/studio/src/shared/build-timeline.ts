import type { LiveMark, TimelineRecord, ViewUsage } from './studio-data.js';

/** A bar of a run's timeline: a model call or a tool call, in milliseconds since the run started. */
export interface TimelineBar {
  kind: 'model' | 'tool';
  label: string;
  startMs: number;
  endMs: number;
  /**
   * True when the log holds no time of its own for the bar: a model call
   * then spans the time between the events around it, shared evenly with the
   * other calls in that gap.
   */
  estimated: boolean;
  isError: boolean;
  /** A tool call that started and never finished. */
  unfinished: boolean;
  usage?: ViewUsage;
  detail: string;
  seq: number;
}

/** A point of a run's timeline: a retry, a compaction, an approval asked for, an error, an interruption. */
export interface TimelineMark {
  kind: 'retry' | 'compaction' | 'approval' | 'error' | 'interrupted' | 'denied';
  atMs: number;
  text: string;
}

/** One run of a session, from its `run_started` to its `run_ended` (or where the log stops). */
export interface TimelineRun {
  runId: string;
  startedAt: string;
  durationMs: number;
  /** `running` while no end is logged and the session runs; `interrupted` when it stopped without one. */
  state: 'running' | 'ended' | 'interrupted';
  reason?: string;
  usage: ViewUsage;
  bars: TimelineBar[];
  marks: TimelineMark[];
  /** For a run that failed or was cut short: where and why, in a sentence. */
  problem?: string;
}

interface OpenRun {
  run: TimelineRun;
  start: number;
  /** The latest time the log vouches for: where the next model call starts. */
  cursor: number;
  /** Model calls whose end time the log did not record, waiting for the next timed event. */
  untimed: TimelineBar[];
  openTools: Map<string, TimelineBar>;
  lastError?: string;
}

/**
 * Turns a session's events-log records into its runs' timelines. Model calls
 * are bars between the log's timed events (a run's start and end, a tool's
 * start and its duration, a message's own time when recorded); tools are bars
 * of their measured duration. `sessionRunning` says whether a run without an
 * end is still going (else it was interrupted). `marks` adds what the studio
 * saw of its own runs that the log does not keep (retries).
 */
export function buildTimeline(
  records: readonly TimelineRecord[],
  options: { sessionRunning: boolean; marks?: readonly LiveMark[]; now?: number },
): TimelineRun[] {
  const runs: TimelineRun[] = [];
  let open: OpenRun | undefined;
  for (const record of records) {
    if (record.type === 'run_started') {
      if (open !== undefined) finishOpen(open, false);
      const start = Date.parse(record.at);
      open = {
        run: {
          runId: record.runId,
          startedAt: record.at,
          durationMs: 0,
          state: 'running',
          usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
          bars: [],
          marks: [],
        },
        start,
        cursor: start,
        untimed: [],
        openTools: new Map(),
      };
      runs.push(open.run);
      continue;
    }
    if (open === undefined) continue;
    applyRecord(open, record);
    if (record.type === 'run_ended') open = undefined;
  }
  if (open !== undefined) finishOpen(open, options.sessionRunning, options.now);
  for (const mark of options.marks ?? []) {
    const run = runs.find((candidate) => candidate.runId === mark.runId);
    if (run === undefined) continue;
    run.marks.push({
      kind: mark.kind,
      atMs: Date.parse(mark.at) - Date.parse(run.startedAt),
      text: mark.text,
    });
  }
  for (const run of runs) run.marks.sort((left, right) => left.atMs - right.atMs);
  return runs;
}

function applyRecord(open: OpenRun, record: TimelineRecord): void {
  switch (record.type) {
    case 'message':
      applyMessage(open, record);
      break;
    case 'tool_started': {
      const at = Date.parse(record.at);
      settleUntimed(open, at);
      const bar: TimelineBar = {
        kind: 'tool',
        label: record.toolName,
        startMs: at - open.start,
        endMs: at - open.start,
        estimated: false,
        isError: false,
        unfinished: true,
        detail: record.toolCallId,
        seq: record.seq,
      };
      open.openTools.set(record.toolCallId, bar);
      open.run.bars.push(bar);
      break;
    }
    case 'tool_finished': {
      const bar = open.openTools.get(record.toolCallId);
      if (bar === undefined) break;
      open.openTools.delete(record.toolCallId);
      bar.endMs = bar.startMs + record.durationMs;
      bar.unfinished = false;
      bar.isError = record.isError;
      open.cursor = Math.max(open.cursor, open.start + bar.endMs);
      break;
    }
    case 'run_ended': {
      const at = Date.parse(record.at);
      settleUntimed(open, at);
      const run = open.run;
      run.state = 'ended';
      run.reason = record.reason;
      run.usage = record.usage;
      run.durationMs = at - open.start;
      closeUnfinished(open, run.durationMs);
      if (record.error !== undefined) open.lastError = record.error;
      endMarks(open, record.reason, record.pendingApprovals);
      break;
    }
    default:
      break;
  }
}

function applyMessage(open: OpenRun, record: Extract<TimelineRecord, { type: 'message' }>): void {
  if (record.role === 'assistant') {
    const calls = record.toolCalls ?? [];
    const bar: TimelineBar = {
      kind: 'model',
      label: record.model ?? 'model',
      startMs: open.cursor - open.start,
      endMs: open.cursor - open.start,
      estimated: record.at === undefined,
      isError: record.stopReason === 'error',
      unfinished: false,
      detail:
        calls.length > 0
          ? `asked for ${calls.map((call) => call.name).join(', ')}`
          : `answered (${record.stopReason ?? 'end_turn'})`,
      seq: record.seq,
    };
    if (record.usage !== undefined) bar.usage = record.usage;
    if (record.errorMessage !== undefined) open.lastError = record.errorMessage;
    open.run.bars.push(bar);
    if (record.at !== undefined) {
      const at = Date.parse(record.at);
      settleUntimed(open, at);
      bar.endMs = Math.max(bar.startMs, at - open.start);
      open.cursor = Math.max(open.cursor, at);
    } else open.untimed.push(bar);
    if (record.stopReason === 'error')
      open.run.marks.push({
        kind: 'error',
        atMs: bar.startMs,
        text: record.errorMessage ?? 'the model call failed',
      });
    return;
  }
  if (record.role === 'compaction' && record.compaction !== undefined) {
    const { droppedMessages, tokensBefore, tokensAfter } = record.compaction;
    open.run.marks.push({
      kind: 'compaction',
      atMs: open.cursor - open.start,
      text: `compacted: ${droppedMessages} messages no longer sent, ${tokensBefore} → ${tokensAfter} tokens`,
    });
    return;
  }
  if (record.role === 'toolResult' && record.isError === true && record.toolCallId !== undefined) {
    const ran = open.run.bars.some((bar) => bar.kind === 'tool' && bar.detail === record.toolCallId);
    if (!ran)
      open.run.marks.push({
        kind: 'denied',
        atMs: open.cursor - open.start,
        text: `${record.toolName ?? 'a tool'} not run (refused, denied or skipped)`,
      });
  }
}

/** Gives the model calls that had no time of their own the gap up to `at`, shared evenly. */
function settleUntimed(open: OpenRun, at: number): void {
  const count = open.untimed.length;
  if (count === 0) {
    open.cursor = Math.max(open.cursor, at);
    return;
  }
  const from = open.cursor;
  const step = Math.max(0, at - from) / count;
  open.untimed.forEach((bar, index) => {
    bar.startMs = from + step * index - open.start;
    bar.endMs = from + step * (index + 1) - open.start;
  });
  open.untimed = [];
  open.cursor = Math.max(open.cursor, at);
}

function closeUnfinished(open: OpenRun, endMs: number): void {
  for (const bar of open.openTools.values()) {
    bar.endMs = Math.max(bar.startMs, endMs);
    bar.isError = true;
  }
}

function endMarks(open: OpenRun, reason: string, pendingApprovals: number): void {
  const run = open.run;
  const at = run.durationMs;
  if (reason === 'await_user') {
    run.marks.push({
      kind: 'approval',
      atMs: at,
      text: `paused: ${pendingApprovals} call${pendingApprovals === 1 ? '' : 's'} waiting for a decision`,
    });
    return;
  }
  if (reason === 'completed') return;
  const where = describeWhere(open);
  const why =
    reason === 'error'
      ? `failed${open.lastError === undefined ? '' : `: ${open.lastError}`}`
      : reason === 'aborted'
        ? 'aborted'
        : reason === 'timeout'
          ? 'stopped by its time limit'
          : reason === 'max_turns'
            ? 'stopped at its turn limit'
            : reason === 'max_tokens'
              ? 'stopped at its token limit'
              : reason;
  run.problem = `${why} ${where}`;
  run.marks.push({ kind: 'error', atMs: at, text: run.problem });
}

/** Where a run stopped: after the last step its log holds, or before any. */
function describeWhere(open: OpenRun): string {
  const last = open.run.bars.at(-1);
  if (last === undefined) return '(before any model answer or tool call was logged)';
  return last.kind === 'tool'
    ? `(after tool call ${last.label}, ${last.detail})`
    : `(after a model call that ${last.detail})`;
}

function finishOpen(open: OpenRun, stillRunning: boolean, now?: number): void {
  settleUntimed(open, open.cursor);
  const run = open.run;
  const lastEnd = Math.max(0, ...run.bars.map((bar) => bar.endMs));
  if (stillRunning) {
    run.state = 'running';
    run.durationMs = Math.max(lastEnd, now === undefined ? 0 : now - open.start);
    for (const bar of open.openTools.values()) bar.endMs = Math.max(bar.startMs, run.durationMs);
    return;
  }
  run.state = 'interrupted';
  run.durationMs = lastEnd;
  const unfinished = [...open.openTools.values()];
  closeUnfinished(open, lastEnd);
  run.problem =
    unfinished.length > 0
      ? `interrupted while ${unfinished.map((bar) => `${bar.label} (${bar.detail})`).join(', ')} ran: the process stopped, so its outcome is unknown`
      : `interrupted: the process stopped before the run ended ${describeWhere(open)}`;
  run.marks.push({ kind: 'interrupted', atMs: lastEnd, text: run.problem });
}
