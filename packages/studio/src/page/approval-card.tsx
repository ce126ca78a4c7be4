import { useState } from 'preact/hooks';
import type { DecisionAnswer, ViewApproval } from '../shared/studio-data.js';
import { postJson } from './api.js';
import { formatAge, formatBytes } from './format.js';
import { sessionHref } from './use-route.js';

/**
 * One call waiting for a decision: its tool, risk, the policy's reason, its
 * input, and for a file edit the diff; Approve, or Deny with a reason. The
 * answer says what happened: resumed here, enqueued for a worker (the app
 * took the decision over), or already decided (and how) by someone else, in
 * which case nothing ran here.
 */
export function ApprovalCard({
  approval,
  canDecide,
  showSession,
  onDecided,
}: {
  approval: ViewApproval;
  canDecide: boolean;
  showSession: boolean;
  onDecided: (answer: DecisionAnswer) => void;
}) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<DecisionAnswer | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const decide = async (decision: 'allow' | 'deny') => {
    setBusy(true);
    setError(undefined);
    try {
      const body = {
        decisions: [
          {
            toolCallId: approval.toolCallId,
            decision,
            ...(decision === 'deny' && reason !== '' ? { reason } : {}),
          },
        ],
      };
      const result = await postJson<DecisionAnswer>(
        `/api/sessions/${encodeURIComponent(approval.sessionId)}/decisions`,
        body,
      );
      setAnswer(result);
      onDecided(result);
    } catch (problem) {
      setError((problem as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const headingId = `approval-${approval.sessionId}-${approval.toolCallId}`;
  return (
    <article class="approval" aria-labelledby={headingId} data-call={approval.toolCallId}>
      <h3 id={headingId}>
        <code>{approval.toolName}</code> <span class={`risk risk-${approval.risk}`}>{approval.risk}</span>
        {approval.agentPath.length > 0 && <span class="muted"> in {approval.agentPath.join(' › ')}</span>}
      </h3>
      {showSession && (
        <p class="muted">
          Session <a href={sessionHref(approval.sessionId)}>{approval.sessionTitle || approval.sessionId}</a>{' '}
          · asked {formatAge(approval.requestedAt)} · call <code>{approval.toolCallId}</code>
        </p>
      )}
      <p>
        <strong>Why it waits:</strong> {approval.reason}
      </p>
      {approval.diff !== undefined ? (
        <figure class="diff">
          <figcaption>
            Change to <code>{approval.diff.path}</code>
            {approval.diff.cut && ' (cut: the first 400 lines)'}
          </figcaption>
          <pre>
            {approval.diff.lines.map((line, index) => (
              <div
                key={index}
                class={`diff-line diff-${line.kind === '+' ? 'added' : line.kind === '-' ? 'removed' : 'kept'}`}
              >
                {line.kind} {line.text}
              </div>
            ))}
          </pre>
        </figure>
      ) : null}
      <details open={approval.diff === undefined}>
        <summary>Input{approval.input.cut ? ` (${formatBytes(approval.input.size)}, cut)` : ''}</summary>
        <pre class="input">{approval.input.text}</pre>
      </details>
      {answer === undefined ? (
        canDecide ? (
          <div class="decide">
            <label>
              <span>Reason for a denial (optional)</span>
              <input
                type="text"
                value={reason}
                maxLength={2000}
                onInput={(event) => setReason((event.target as HTMLInputElement).value)}
              />
            </label>
            <button type="button" class="approve" disabled={busy} onClick={() => decide('allow')}>
              Approve
            </button>
            <button type="button" class="deny" disabled={busy} onClick={() => decide('deny')}>
              Deny
            </button>
          </div>
        ) : (
          <p class="muted">
            This studio was started without an agent, so it cannot run the tool: decide with agent-core
            approve.
          </p>
        )
      ) : (
        <DecisionOutcome answer={answer} />
      )}
      {error !== undefined && (
        <p class="banner error" role="alert">
          The decision was not sent: {error}
        </p>
      )}
    </article>
  );
}

/** What became of a decision, in a sentence or two. */
export function DecisionOutcome({ answer }: { answer: DecisionAnswer }) {
  switch (answer.outcome) {
    case 'resumed':
      return (
        <p class="outcome ok" role="status">
          Decided. The run resumed in the studio; its progress shows on the session's page.
        </p>
      );
    case 'enqueued':
      return (
        <p class={`outcome ${answer.alreadyEnqueued ? 'warn' : 'ok'}`} role="status">
          {answer.message}
        </p>
      );
    case 'already_decided':
      return (
        <div class="outcome warn" role="status">
          <p>This call was already decided elsewhere, so nothing ran here:</p>
          <ul>
            {answer.decided.map((call) => (
              <li key={call.toolCallId}>
                <code>{call.toolName}</code> ({call.toolCallId}):{' '}
                {call.isError ? 'refused, skipped or failed' : 'it ran'} — {call.result}
              </li>
            ))}
          </ul>
        </div>
      );
    case 'claimed_elsewhere':
      return (
        <p class="outcome warn" role="status">
          {answer.message}
        </p>
      );
    default:
      return (
        <p class="outcome error" role="status">
          Not decided: {answer.message}
        </p>
      );
  }
}
