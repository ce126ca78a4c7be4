import type { ServerReply } from './fault-server.js';
import { type FaultKind, faultKinds, type WireDialect } from './wire-dialects.js';

/** Which model call of the run gets the fault: the one answered with a tool call, or the answer after the tool ran. */
export type FaultedReply = 'tool_call' | 'answer';

/** How the run is expected to meet the fault: retried until it completes, or settled at once (no retries). */
export type FaultMode = 'recover' | 'settle';

/** One cell of the matrix: where in which reply which fault strikes. */
export interface FaultCase {
  dialect: WireDialect;
  reply: FaultedReply;
  /** -1: before the response headers; n ≥ 0: after the headers and the first n events. */
  point: number;
  kind: FaultKind;
  mode: FaultMode;
}

/** The reply's events whose points the matrix walks, for a dialect. */
export function replyEvents(dialect: WireDialect, reply: FaultedReply): string[] {
  return reply === 'tool_call' ? dialect.toolReply('call_0') : dialect.textReply(finalText);
}

/** The text of the last answer of every scripted run. */
export const finalText = 'It is 45.';

/** What the server sends for `events` with a fault of `kind` at `point`. */
export function faulted(
  dialect: WireDialect,
  events: readonly string[],
  point: number,
  kind: FaultKind,
): ServerReply {
  if (point < 0) return dialect.beforeHeaders(kind);
  const head = events.slice(0, point);
  if (kind === 'drop') return { type: 'stream', events: head, ending: 'drop' };
  if (kind === 'stall') return { type: 'stream', events: head, ending: 'hang' };
  return { type: 'stream', events: [...head, dialect.inStream(kind, point)], ending: 'end' };
}

/**
 * Every fault case of a dialect: each point of both replies (before the
 * headers, after them, after each event), each fault kind, in both modes.
 */
export function allFaultCases(dialect: WireDialect): FaultCase[] {
  const cases: FaultCase[] = [];
  for (const reply of ['tool_call', 'answer'] as const) {
    const points = replyEvents(dialect, reply).length;
    for (let point = -1; point <= points; point++) {
      for (const kind of faultKinds) {
        for (const mode of ['recover', 'settle'] as const) cases.push({ dialect, reply, point, kind, mode });
      }
    }
  }
  return cases;
}

/**
 * The default run's share of the matrix, fixed so it tries the same cases
 * every time. In the reply with the tool call: every kind before the headers
 * and at the last two points (where the reply is whole or nearly), two kinds
 * at each point between, in turn; the mode alternates. In the answer after
 * the tool ran: every kind at its middle and last points, retried (the tool
 * must not run again).
 */
export function sampledFaultCases(dialect: WireDialect): FaultCase[] {
  const cases: FaultCase[] = [];
  const toolPoints = replyEvents(dialect, 'tool_call').length;
  for (let point = -1; point <= toolPoints; point++) {
    const every = point < 0 || point >= toolPoints - 1;
    faultKinds.forEach((kind, index) => {
      const taken = every || (point + index) % 5 === 0 || (point + index) % 5 === 2;
      if (!taken) return;
      cases.push({
        dialect,
        reply: 'tool_call',
        point,
        kind,
        mode: (point + index) % 2 === 0 ? 'settle' : 'recover',
      });
    });
  }
  const answerPoints = replyEvents(dialect, 'answer').length;
  for (const point of [Math.floor(answerPoints / 2), answerPoints]) {
    for (const kind of faultKinds) cases.push({ dialect, reply: 'answer', point, kind, mode: 'recover' });
  }
  return cases;
}

/** A case as one line, for test names and failure messages. */
export function describeCase(fault: FaultCase): string {
  const where = fault.point < 0 ? 'before the headers' : `after ${fault.point} events`;
  return `${fault.dialect.name}: ${fault.kind} ${where} of the ${fault.reply.replace('_', ' ')} reply (${fault.mode})`;
}
