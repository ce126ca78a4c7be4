import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ViewApproval } from '../shared/studio-data.js';
import { ApiError, getJson } from './api.js';
import { ApprovalCard } from './approval-card.js';
import { reportStore } from './store-banner.js';

interface Inbox {
  approvals: ViewApproval[];
  problems: { sessionId: string; message: string }[];
  more: number;
  canDecide: boolean;
  storeError?: string;
}

/** Every call waiting for a decision in any stored session, read again every few seconds. */
export function ApprovalsInbox({ onTitle }: { onTitle: (title: string) => void }) {
  const [inbox, setInbox] = useState<Inbox | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  // Calls decided on this page stay shown with their outcome until the page is left.
  const [decided, setDecided] = useState<ViewApproval[]>([]);
  useEffect(() => onTitle('Approvals'), [onTitle]);
  const load = useCallback(async () => {
    try {
      const loaded = await getJson<Inbox>('/api/approvals');
      setInbox(loaded);
      setError(undefined);
      reportStore(loaded.storeError);
    } catch (problem) {
      setError((problem as Error).message);
      if (problem instanceof ApiError && problem.store) reportStore(problem.message);
    }
  }, []);
  useEffect(() => {
    void load();
    const timer = setInterval(load, 4000);
    return () => clearInterval(timer);
  }, [load]);
  const key = (approval: ViewApproval) => `${approval.sessionId}/${approval.toolCallId}`;
  const shown = [
    ...decided,
    ...(inbox?.approvals ?? []).filter((approval) => !decided.some((done) => key(done) === key(approval))),
  ];
  return (
    <section aria-labelledby="approvals-heading">
      <h1 id="approvals-heading">Approvals</h1>
      {error !== undefined && (
        <p class="banner error" role="alert">
          The approvals could not be read: {error}
        </p>
      )}
      {inbox === undefined ? (
        <p aria-live="polite">Reading the sessions that wait…</p>
      ) : shown.length === 0 ? (
        <p aria-live="polite">No call is waiting for a decision.</p>
      ) : (
        <p class="muted" aria-live="polite">
          {inbox.approvals.length} call{inbox.approvals.length === 1 ? '' : 's'} waiting
          {inbox.more > 0 ? `, and ${inbox.more} more sessions not shown` : ''}.
        </p>
      )}
      {inbox?.problems.map((problem) => (
        <p key={problem.sessionId} class="banner warn">
          Session {problem.sessionId} could not be read: {problem.message}
        </p>
      ))}
      {shown.map((approval) => (
        <ApprovalCard
          key={key(approval)}
          approval={approval}
          canDecide={inbox?.canDecide ?? false}
          showSession={true}
          onDecided={() =>
            setDecided((list) =>
              list.some((done) => key(done) === key(approval)) ? list : [...list, approval],
            )
          }
        />
      ))}
    </section>
  );
}
