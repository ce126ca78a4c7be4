import { describe, expect, it } from 'vitest';
import { buildTimeline } from './build-timeline.js';
import type { TimelineRecord } from './studio-data.js';

const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cost: 0.001 };
const at = (milliseconds: number) => new Date(Date.UTC(2026, 0, 1) + milliseconds).toISOString();

function toolRun(): TimelineRecord[] {
  return [
    { seq: 1, type: 'run_started', runId: 'r1', at: at(0) },
    { seq: 2, type: 'message', role: 'user' },
    {
      seq: 3,
      type: 'message',
      role: 'assistant',
      usage,
      model: 'm',
      stopReason: 'tool_use',
      toolCalls: [{ id: 'c1', name: 'read' }],
    },
    { seq: 4, type: 'tool_started', toolCallId: 'c1', toolName: 'read', at: at(400) },
    { seq: 5, type: 'message', role: 'toolResult', toolCallId: 'c1', toolName: 'read', isError: false },
    { seq: 6, type: 'tool_finished', toolCallId: 'c1', toolName: 'read', isError: false, durationMs: 100 },
    { seq: 7, type: 'message', role: 'assistant', usage, model: 'm', stopReason: 'end_turn' },
  ];
}

describe('buildTimeline', () => {
  it('puts model calls between the timed events and tools at their measured times', () => {
    const [run] = buildTimeline(
      [
        ...toolRun(),
        {
          seq: 8,
          type: 'run_ended',
          runId: 'r1',
          reason: 'completed',
          usage,
          at: at(1000),
          pendingApprovals: 0,
        },
      ],
      { sessionRunning: false },
    );
    expect(run?.state).toBe('ended');
    expect(run?.durationMs).toBe(1000);
    expect(run?.bars.map((bar) => [bar.kind, bar.startMs, bar.endMs, bar.estimated])).toEqual([
      ['model', 0, 400, true],
      ['tool', 400, 500, false],
      ['model', 500, 1000, true],
    ]);
    expect(run?.problem).toBeUndefined();
  });

  it('says where and why a failed run stopped, from the error its end recorded', () => {
    const [run] = buildTimeline(
      [
        ...toolRun().slice(0, 6),
        {
          seq: 7,
          type: 'run_ended',
          runId: 'r1',
          reason: 'error',
          usage,
          at: at(900),
          pendingApprovals: 0,
          error: 'overloaded after 3 retries',
        },
      ],
      { sessionRunning: false },
    );
    expect(run?.problem).toBe('failed: overloaded after 3 retries (after tool call read, c1)');
    expect(run?.marks.map((mark) => mark.kind)).toEqual(['error']);
  });

  it('shows a run that stopped without an end as interrupted, naming the tool that never finished', () => {
    const [run] = buildTimeline(toolRun().slice(0, 5), { sessionRunning: false });
    expect(run?.state).toBe('interrupted');
    expect(run?.problem).toContain('interrupted while read (c1) ran');
    expect(run?.bars.find((bar) => bar.kind === 'tool')).toMatchObject({ unfinished: true, isError: true });
  });

  it('keeps a run without an end running while the session runs', () => {
    const [run] = buildTimeline(toolRun().slice(0, 4), { sessionRunning: true, now: Date.parse(at(2000)) });
    expect(run?.state).toBe('running');
    expect(run?.durationMs).toBe(2000);
  });

  it('marks approvals, compactions, calls not run and the retries the studio saw', () => {
    const [run] = buildTimeline(
      [
        { seq: 1, type: 'run_started', runId: 'r1', at: at(0) },
        {
          seq: 2,
          type: 'message',
          role: 'compaction',
          compaction: { droppedMessages: 4, tokensBefore: 900, tokensAfter: 300 },
        },
        {
          seq: 3,
          type: 'message',
          role: 'assistant',
          stopReason: 'tool_use',
          toolCalls: [{ id: 'c1', name: 'rm' }],
        },
        { seq: 4, type: 'message', role: 'toolResult', toolCallId: 'c1', toolName: 'rm', isError: true },
        {
          seq: 5,
          type: 'run_ended',
          runId: 'r1',
          reason: 'await_user',
          usage,
          at: at(300),
          pendingApprovals: 2,
        },
      ],
      {
        sessionRunning: false,
        marks: [{ runId: 'r1', kind: 'retry', at: at(100), text: 'retry 1 after 100 ms' }],
      },
    );
    expect(run?.marks.map((mark) => mark.kind)).toEqual(['compaction', 'denied', 'retry', 'approval']);
    expect(run?.marks.at(-1)?.text).toBe('paused: 2 calls waiting for a decision');
  });

  it('draws ten thousand events in one pass', () => {
    const records: TimelineRecord[] = [{ seq: 1, type: 'run_started', runId: 'r1', at: at(0) }];
    for (let step = 0; step < 2500; step++) {
      const seq = records.length + 1;
      records.push(
        {
          seq,
          type: 'message',
          role: 'assistant',
          stopReason: 'tool_use',
          toolCalls: [{ id: `c${step}`, name: 'read' }],
        },
        {
          seq: seq + 1,
          type: 'tool_started',
          toolCallId: `c${step}`,
          toolName: 'read',
          at: at(step * 10 + 5),
        },
        {
          seq: seq + 2,
          type: 'message',
          role: 'toolResult',
          toolCallId: `c${step}`,
          toolName: 'read',
          isError: false,
        },
        {
          seq: seq + 3,
          type: 'tool_finished',
          toolCallId: `c${step}`,
          toolName: 'read',
          isError: false,
          durationMs: 4,
        },
      );
    }
    const [run] = buildTimeline(records, { sessionRunning: false });
    expect(run?.bars).toHaveLength(5000);
    expect(run?.state).toBe('interrupted');
  });
});
