import type { BenchResults } from './results.js';
import { number, table } from './report-format.js';

// Workload 12 in the report: what recording costs per step, and replaying a 1,000-step session.

/** The replay target: a 1,000-step session replayed in under 1 s, from each source. */
export function recordReplayTargets(
  results: BenchResults,
): { target: string; measured: string; pass: boolean }[] {
  const replay = results.recordReplay?.replay ?? [];
  if (replay.length === 0) return [];
  const slowest = Math.max(...replay.map((cell) => cell.totalMs));
  return [
    {
      target: 'Replaying a 1,000-step session (read, load, run) takes under 1 s (workload 12)',
      measured: replay.map((cell) => `${cell.source}: ${number(cell.totalMs, 0)} ms`).join('; '),
      pass: slowest < 1000,
    },
  ];
}

/** Workload 12's tables, or nothing when the run did not measure it. */
export function renderRecordReplay(results: BenchResults): string[] {
  const measured = results.recordReplay;
  if (measured === undefined) return [];
  return [
    `### 12. Record and replay (\`@agent-core/cassette\`)\n\nRecording: the agentic sequential run of N \`add\` steps on the scripted model, and the same run through \`cassette({ mode: 'record' })\` (a new cassette per run), kept in memory or written to a file after every reply (a temporary file renamed over it). CPU time (user and system, the collector's threads included; wall time on this shared machine moves with the other jobs' load), the three in turn, a batch of about 2,000 steps each, ${measured.recording[0]?.samples ?? 0} rounds after a warm-up round; medians per run, the added time divided by N. The file is rewritten whole after each reply, so its cost per step grows with the conversation.\n`,
    table(
      [
        'N',
        'plain run, per step',
        'recording in memory, added per step',
        'recording to a file, added per step',
      ],
      measured.recording.map((cell) => [
        number(cell.steps, 0),
        `${number(cell.plainUsPerStep)} µs`,
        `${number(cell.memoryUsPerStep)} µs`,
        `${number(cell.fileUsPerStep)} µs`,
      ]),
    ),
    'Replay: a 1,000-step conversation, stored by a `SessionManager` run or recorded to a cassette file, replayed by a fresh agent with its tool run for real; medians of 7 fresh replays, in wall time (read: `sessionCassette`, the stored session read as a cassette; load: `cassette()`, a file read and parsed and every entry indexed; run: the agent on the cassette) and in CPU time for the three together.\n',
    table(
      ['source', 'read', 'load', 'run', 'total', 'CPU time', 'the plain run, for scale'],
      measured.replay.map((cell) => [
        cell.source,
        `${number(cell.readMs)} ms`,
        `${number(cell.loadMs)} ms`,
        `${number(cell.runMs)} ms`,
        `**${number(cell.totalMs)} ms**`,
        `${number(cell.cpuMs)} ms`,
        `${number(cell.plainRunMs)} ms`,
      ]),
    ),
  ];
}
