import type { AgentResult, Session } from '@agent-core/core';
import { pendingLines } from '../approvals/pending-lines.js';
import { exitCodes } from '../exit-codes.js';
import { formatDuration } from '../output/render-events.js';
import type { OutputStream, Style } from '../output/terminal-style.js';

/**
 * The exit code of a finished run: 0 completed with text, 3 paused for
 * approval, 130 aborted by Ctrl-C, 1 anything else (an error, a limit, an
 * abort from elsewhere, or a completed run without text).
 */
export function exitCodeOf(result: AgentResult, interrupted: boolean): number {
  if (result.terminateReason === 'await_user') return exitCodes.awaitingApproval;
  if (result.terminateReason === 'aborted' && interrupted) return exitCodes.interrupted;
  if (result.terminateReason === 'completed' && result.text.trim() !== '') return exitCodes.completed;
  return exitCodes.failed;
}

/** `turns 2 · tokens 30 in, 12 out · $0.0012 · 1.4 s · session 5970a451`: how much a run took. */
export function summaryLine(result: AgentResult, sessionId: string | undefined): string {
  const { usage } = result;
  const parts = [
    `${result.turns} ${result.turns === 1 ? 'turn' : 'turns'}`,
    `tokens ${usage.input} in, ${usage.output} out${usage.cacheRead > 0 ? `, ${usage.cacheRead} cached` : ''}`,
  ];
  if (usage.cost !== undefined) parts.push(`$${usage.cost.toFixed(4)}`);
  parts.push(formatDuration(result.durationMs));
  if (sessionId !== undefined) parts.push(`session ${sessionId}`);
  return parts.join(' · ');
}

/** What a paused run prints: the session and the calls that wait, and how to decide them from any process. */
export async function reportPause(session: Session, out: OutputStream, style: Style): Promise<void> {
  const approvals = session.agent.pendingApprovals;
  out.write(
    `${style.yellow('[await_user]')} session ${session.id} waits for approval of ${approvals.length} tool call${approvals.length === 1 ? '' : 's'}:\n`,
  );
  out.write(pendingLines(approvals, style));
  out.write(
    `Decide from any terminal: agent-core approve ${session.id} [CALL...]  (or --deny [--reason TEXT])\n`,
  );
}
