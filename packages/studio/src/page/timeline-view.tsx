import type { TimelineBar, TimelineMark, TimelineRun } from '../shared/build-timeline.js';
import { formatCost, formatDuration, formatTokens } from './format.js';
import { VirtualRows } from './virtual-rows.js';

const rowHeight = 24;
const boxHeight = 360;

type Row = { kind: 'bar'; bar: TimelineBar } | { kind: 'mark'; mark: TimelineMark };

/**
 * A run as a timeline: a row per model call and tool call, its bar on the
 * run's time axis with its duration, tokens and cost; retries, compactions,
 * approvals, errors and an interruption as marked rows in time order. The
 * rows are virtualised, so a run of ten thousand events draws as fast as a short one.
 */
export function RunTimeline({ run, index }: { run: TimelineRun; index: number }) {
  const total = Math.max(1, run.durationMs, ...run.bars.map((bar) => bar.endMs));
  const rows: Row[] = [
    ...run.bars.map((bar): Row => ({ kind: 'bar', bar })),
    ...run.marks.map((mark): Row => ({ kind: 'mark', mark })),
  ].sort((left, right) => start(left) - start(right));
  const models = run.bars.filter((bar) => bar.kind === 'model').length;
  const tools = run.bars.length - models;
  const headingId = `run-${run.runId}`;
  return (
    <section class={`run run-${run.state}`} aria-labelledby={headingId} data-run={run.runId}>
      <h3 id={headingId}>
        Run {index + 1}{' '}
        <span class={`status status-${run.state === 'ended' ? (run.reason ?? 'ended') : run.state}`}>
          {runState(run)}
        </span>
      </h3>
      <p class="muted">
        {new Date(run.startedAt).toLocaleString('en')} · {formatDuration(run.durationMs)} · {models} model
        call{models === 1 ? '' : 's'}, {tools} tool call{tools === 1 ? '' : 's'} · {formatTokens(run.usage)} ·{' '}
        {formatCost(run.usage.cost)}
      </p>
      {run.problem !== undefined && (
        <p class="banner error" role="note">
          {run.problem}
        </p>
      )}
      <div class="axis" aria-hidden="true">
        <span>0</span>
        <span>{formatDuration(total / 2)}</span>
        <span>{formatDuration(total)}</span>
      </div>
      <VirtualRows
        count={rows.length}
        rowHeight={rowHeight}
        height={boxHeight}
        label={`Timeline of run ${index + 1}`}
        renderRow={(rowIndex) => <TimelineRow row={rows[rowIndex] as Row} total={total} />}
      />
    </section>
  );
}

function start(row: Row): number {
  return row.kind === 'bar' ? row.bar.startMs : row.mark.atMs;
}

function runState(run: TimelineRun): string {
  if (run.state === 'running') return 'running';
  if (run.state === 'interrupted') return 'interrupted';
  return run.reason === 'await_user' ? 'waiting for approval' : (run.reason ?? 'ended');
}

function TimelineRow({ row, total }: { row: Row; total: number }) {
  if (row.kind === 'mark') {
    const { mark } = row;
    const left = (mark.atMs / total) * 100;
    return (
      <li class={`timeline-row mark mark-${mark.kind}`} style={{ height: `${rowHeight}px` }}>
        <span class="row-label">{markLabel(mark.kind)}</span>
        <svg class="row-track" aria-hidden="true">
          <circle cx={`${Math.min(99.5, Math.max(0.5, left))}%`} cy="50%" r="5" />
        </svg>
        <span class="row-detail">{mark.text}</span>
      </li>
    );
  }
  const { bar } = row;
  const left = (bar.startMs / total) * 100;
  const width = Math.max(0.3, ((bar.endMs - bar.startMs) / total) * 100);
  const duration = formatDuration(bar.endMs - bar.startMs);
  const detail = [
    `${bar.estimated ? '≈' : ''}${duration}`,
    bar.usage === undefined ? '' : formatTokens(bar.usage),
    bar.usage?.cost === undefined ? '' : formatCost(bar.usage.cost),
    bar.unfinished ? 'never finished' : bar.isError ? 'error' : '',
    bar.detail,
  ]
    .filter((part) => part !== '')
    .join(' · ');
  return (
    <li
      class={`timeline-row bar-${bar.kind}${bar.isError ? ' failed' : ''}${bar.estimated ? ' estimated' : ''}`}
      style={{ height: `${rowHeight}px` }}
    >
      <span class="row-label">
        {bar.kind === 'model' ? 'model' : 'tool'} <code>{bar.label}</code>
      </span>
      <svg class="row-track" aria-hidden="true">
        <rect x={`${left}%`} y="4" width={`${Math.min(width, 100 - left)}%`} height={rowHeight - 8} rx="2">
          <title>{detail}</title>
        </rect>
      </svg>
      <span class="row-detail">{detail}</span>
    </li>
  );
}

function markLabel(kind: TimelineMark['kind']): string {
  switch (kind) {
    case 'retry':
      return '↻ retry';
    case 'compaction':
      return '↓ compaction';
    case 'approval':
      return '‖ approval';
    case 'denied':
      return '∅ not run';
    case 'interrupted':
      return '× interrupted';
    default:
      return '! error';
  }
}
