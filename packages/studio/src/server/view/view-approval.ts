import type { PendingApproval } from '@agent-core/core';
import type { ViewApproval } from '../../shared/studio-data.js';
import { editDiff } from './edit-diff.js';
import type { Redactor } from './redactor.js';
import { blockLimit } from './view-message.js';

/** The longest line a diff shows; a longer one is cut. */
const diffLineLength = 2_000;

/** A pending approval as the inbox shows it: input cut and redacted, and for a file edit its diff. */
export function viewApproval(
  session: { id: string; title: string },
  approval: PendingApproval,
  redactor: Redactor,
): ViewApproval {
  const view: ViewApproval = {
    sessionId: session.id,
    sessionTitle: redactor.text(session.title),
    toolCallId: approval.toolCallId,
    toolName: approval.toolName,
    risk: approval.risk,
    reason: redactor.text(approval.reason),
    input: redactor.cut(JSON.stringify(approval.input ?? {}, null, 2) ?? '', blockLimit),
    agentPath: approval.agentPath ?? [],
    requestedAt: approval.requestedAt,
  };
  const diff = editDiff(approval.input ?? {});
  if (diff !== undefined)
    view.diff = {
      path: redactor.text(diff.path),
      cut: diff.cut,
      lines: diff.lines.map((line) => ({
        kind: line.kind,
        text: redactor.text(
          line.text.length > diffLineLength ? `${line.text.slice(0, diffLineLength)}…` : line.text,
        ),
      })),
    };
  return view;
}
