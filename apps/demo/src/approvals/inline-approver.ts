import type { ApprovalAnswer, ApprovalRequest, Approver } from '@agent-core/core';
import type { Style } from '../output/terminal-style.js';

/** Asks the person at the terminal one question and resolves with the line typed ('' once `signal` aborts). */
export type Ask = (question: string, signal?: AbortSignal) => Promise<string>;

/**
 * An approver that asks inline: allow once, allow always (this tool, for the
 * rest of the session), deny, or decide later (the run pauses and the session
 * keeps the request, to decide with `agent-core approve` from anywhere). An
 * empty or unclear answer is asked again; the end of input denies.
 */
export function inlineApprover(ask: Ask, style: Style): Approver {
  return async (request: ApprovalRequest): Promise<ApprovalAnswer> => {
    const where = request.agentPath.length > 0 ? ` (in ${request.agentPath.join(' → ')})` : '';
    const question =
      `${style.yellow('?')} Allow ${style.bold(request.toolName)} ${JSON.stringify(request.input)}${where}?\n` +
      `  ${style.dim(`${request.risk}: ${request.reason}`)}\n` +
      `  [y] yes, once  [a] always for ${request.toolName}  [n] no  [l] decide later: `;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (request.signal.aborted) break;
      const answer = (await ask(attempt === 0 ? question : '  y, a, n or l? ', request.signal))
        .trim()
        .toLowerCase();
      const choice = choiceOf(answer);
      if (choice !== undefined) return choice;
    }
    return { decision: 'deny', reason: 'the user gave no clear answer' };
  };
}

function choiceOf(answer: string): ApprovalAnswer | undefined {
  if (/^(y|yes|once)$/.test(answer)) return 'allow';
  if (/^(a|always)$/.test(answer)) return 'allow_always';
  if (/^(n|no|d|deny)$/.test(answer)) return { decision: 'deny', reason: 'the user declined' };
  if (/^(l|later)$/.test(answer)) return 'later';
  return undefined;
}

/** An approver for `--yes`: every call the policy asks about is allowed (a policy `deny` still wins). */
export const allowEverything: Approver = () => 'allow';
