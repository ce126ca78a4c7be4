import type { SessionLogRecord } from '@agent-core/core';
import type { TimelineRecord } from '../../shared/studio-data.js';
import type { Redactor } from './redactor.js';
import { viewUsage } from './view-message.js';

/**
 * A log record cut down to what a timeline draws (see `TimelineRecord`):
 * times, durations, usage, tool names and outcomes. Undefined for a record
 * that is none of the kinds a run writes.
 */
export function timelineRecord(record: SessionLogRecord, redactor: Redactor): TimelineRecord | undefined {
  const event = record.event as Record<string, unknown> & { type?: unknown };
  const seq = record.seq;
  switch (event.type) {
    case 'run_started':
      return { seq, type: 'run_started', runId: String(event.runId), at: String(event.at) };
    case 'tool_started':
      return {
        seq,
        type: 'tool_started',
        toolCallId: String(event.toolCallId),
        toolName: String(event.toolName),
        at: String(event.at),
      };
    case 'tool_finished':
      return {
        seq,
        type: 'tool_finished',
        toolCallId: String(event.toolCallId),
        toolName: String(event.toolName),
        isError: event.isError === true,
        durationMs: typeof event.durationMs === 'number' ? event.durationMs : 0,
      };
    case 'run_ended': {
      const ended: TimelineRecord = {
        seq,
        type: 'run_ended',
        runId: String(event.runId),
        reason: String(event.reason),
        usage: viewUsage(event.usage) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        at: String(event.at),
        pendingApprovals: Array.isArray(event.pendingApprovals) ? event.pendingApprovals.length : 0,
      };
      const error = event.error as { message?: unknown } | undefined;
      if (typeof error?.message === 'string') ended.error = redactor.cut(error.message, 1_000).text;
      return ended;
    }
    case 'message':
      return messageRecord(seq, event, redactor);
    default:
      return undefined;
  }
}

function messageRecord(seq: number, event: Record<string, unknown>, redactor: Redactor): TimelineRecord {
  const message = (event.message ?? {}) as Record<string, unknown>;
  const role = typeof message.role === 'string' ? message.role : 'unknown';
  const record: Extract<TimelineRecord, { type: 'message' }> = { seq, type: 'message', role };
  if (typeof event.at === 'string') record.at = event.at;
  const usage = viewUsage(message.usage);
  if (usage !== undefined) record.usage = usage;
  if (typeof message.stopReason === 'string') record.stopReason = message.stopReason;
  if (typeof message.model === 'string') record.model = message.model;
  if (typeof message.errorMessage === 'string')
    record.errorMessage = redactor.cut(message.errorMessage, 500).text;
  if (role === 'assistant' && Array.isArray(message.content)) {
    const calls = (message.content as Record<string, unknown>[])
      .filter((block) => block?.type === 'toolCall')
      .map((block) => ({ id: String(block.id), name: String(block.name) }));
    if (calls.length > 0) record.toolCalls = calls;
  }
  if (role === 'toolResult') {
    record.toolCallId = String(message.toolCallId);
    record.toolName = String(message.toolName);
    record.isError = message.isError === true;
  }
  if (role === 'compaction')
    record.compaction = {
      droppedMessages: Number(message.droppedMessages) || 0,
      tokensBefore: Number(message.tokensBefore) || 0,
      tokensAfter: Number(message.tokensAfter) || 0,
    };
  return record;
}
