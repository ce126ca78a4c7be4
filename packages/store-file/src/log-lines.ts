import { type SessionEvent, type SessionLogRecord, sessionDepthProblem } from '@agent-core/core';

/** One complete line of `events.jsonl`: its number (from 1), where it starts and ends, and its record or what is wrong with it. */
export type LogLine =
  | { line: number; start: number; end: number; record: SessionLogRecord; problem?: undefined }
  | { line: number; start: number; end: number; record?: undefined; problem: string };

/**
 * Splits the complete lines of `bytes` (everything up to its last newline)
 * and parses each into a record, or says why it is not one. Empty lines
 * carry nothing and are skipped. `offset` and `firstLine` place `bytes`
 * in the file, for a read that starts in its middle.
 */
export function parseLogLines(bytes: Uint8Array, offset = 0, firstLine = 1): LogLine[] {
  const lines: LogLine[] = [];
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = 0;
  let number = firstLine;
  for (let newline = text.indexOf(0x0a); newline >= 0; newline = text.indexOf(0x0a, start)) {
    const line = number++;
    const end = newline + 1;
    if (newline > start) {
      const parsed = parseRecord(text.toString('utf8', start, newline));
      const place = { line, start: offset + start, end: offset + end };
      lines.push(typeof parsed === 'string' ? { ...place, problem: parsed } : { ...place, record: parsed });
    }
    start = end;
  }
  return lines;
}

/** A record, or why the text is not one. */
function parseRecord(text: string): SessionLogRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  const record = value as Partial<SessionLogRecord> | null;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return 'not a JSON object';
  if (typeof record.seq !== 'number' || !Number.isSafeInteger(record.seq) || record.seq < 1)
    return 'its seq is not a positive integer';
  if (typeof record.operationId !== 'string') return 'its operationId is not a string';
  const problem = eventProblem(record.event);
  return problem === undefined ? (record as SessionLogRecord) : problem;
}

/**
 * Why `event` could not be replayed (undefined when it can): every event has
 * a string `type` and no field nested past `maxSessionPartDepth`, a message
 * event carries a message with a string `role`, and the events a replay
 * reads fields of have them with their types.
 * Appends check their entries with it, so they never write a line a read refuses.
 */
export function eventProblem(event: unknown): string | undefined {
  const value = event as Partial<SessionEvent> | null;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'its event is not an object';
  if (typeof value.type !== 'string') return 'its event has no type';
  // Before anything reads or copies it: a field nested thousands of levels deep would overflow the stack.
  const tooDeep = sessionDepthProblem(value);
  if (tooDeep !== undefined) return `its event's field '${tooDeep.field}': ${tooDeep.detail}`;
  if (value.type !== 'message') return replayedEventProblem(value as Record<string, unknown>);
  const message = (value as { message?: { role?: unknown } }).message;
  if (typeof message !== 'object' || message === null || typeof message.role !== 'string')
    return 'its message event carries no message with a role';
  return undefined;
}

const usageFields = ['input', 'output', 'cacheRead', 'cacheWrite'] as const;

/** The fields core's replay reads of a run's start and end and of a tool's start, checked so a replay never reads a missing one. */
function replayedEventProblem(event: Record<string, unknown>): string | undefined {
  const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
  switch (event.type) {
    case 'run_started':
      return typeof event.runId === 'string' && typeof event.at === 'string'
        ? undefined
        : 'its run_started event lacks its runId or time';
    case 'tool_started':
      return typeof event.toolCallId === 'string' &&
        typeof event.toolName === 'string' &&
        isObject(event.input)
        ? undefined
        : 'its tool_started event lacks its call id, tool name or input';
    case 'run_ended': {
      const usage = event.usage as Record<string, unknown> | undefined;
      if (typeof event.runId !== 'string' || typeof event.reason !== 'string' || typeof event.at !== 'string')
        return 'its run_ended event lacks its runId, reason or time';
      if (
        !isObject(usage) ||
        usageFields.some((field) => usage?.[field] !== undefined && typeof usage?.[field] !== 'number')
      )
        return 'its run_ended event has no usage of numbers';
      if (event.pendingApprovals !== undefined && !Array.isArray(event.pendingApprovals))
        return 'its run_ended event has pendingApprovals that are not a list';
      if (
        event.alwaysAllowedTools !== undefined &&
        (!Array.isArray(event.alwaysAllowedTools) ||
          event.alwaysAllowedTools.some((name) => typeof name !== 'string'))
      )
        return 'its run_ended event has alwaysAllowedTools that are not a list of names';
      if (event.trace !== undefined && !isObject(event.trace))
        return 'its run_ended event has a trace that is not an object';
      return undefined;
    }
    case 'tool_finished':
      return undefined;
    default:
      // An unknown type is as likely a damaged known one (a `tool_started` lost would make a call that ran
      // look never started): a replay cannot skip it safely.
      return `its event type ${JSON.stringify(String(event.type).slice(0, 40))} is not one agent-core writes`;
  }
}
