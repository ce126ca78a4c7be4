import { useEffect, useMemo, useState } from 'preact/hooks';
import { buildTimeline } from '../shared/build-timeline.js';
import type { DecisionAnswer, LiveUpdate, SessionView } from '../shared/studio-data.js';
import { ApiError, getJson } from './api.js';
import { ApprovalCard, DecisionOutcome } from './approval-card.js';
import { Conversation } from './conversation.js';
import { PromptBox } from './prompt-box.js';
import { formatAge, formatCost, formatTokens, statusLabel } from './format.js';
import { reportStore } from './store-banner.js';
import { RunTimeline } from './timeline-view.js';

/**
 * A session: its status and usage, what could not be read (damage, with the
 * store's error), the calls waiting for a decision, each run as a timeline
 * and the conversation. It follows the session live: the log's new records
 * through server-sent events, the text a run in the studio streams, and a
 * fresh read whenever a run ends.
 */
export function SessionPage({ id, onTitle }: { id: string; onTitle: (title: string) => void }) {
  const [view, setView] = useState<SessionView | undefined>(undefined);
  const [error, setError] = useState<{ message: string; status: number } | undefined>(undefined);
  const [loads, setLoads] = useState(0);
  const [streaming, setStreaming] = useState('');
  const [liveError, setLiveError] = useState<string | undefined>(undefined);
  const [lastAnswer, setLastAnswer] = useState<DecisionAnswer | undefined>(undefined);
  // Where the live stream starts: set by each read of the session, so the stream never repeats what the read holds.
  const [streamFrom, setStreamFrom] = useState<{ fromSeq: number; messages: number } | undefined>(undefined);

  useEffect(() => {
    let stopped = false;
    getJson<SessionView>(`/api/sessions/${encodeURIComponent(id)}`).then(
      (loaded) => {
        if (stopped) return;
        setView(loaded);
        setStreamFrom({ fromSeq: loaded.lastSeq, messages: loaded.messages.length });
        setError(undefined);
        setStreaming('');
        onTitle(loaded.title || loaded.id);
      },
      (problem: unknown) => {
        if (stopped) return;
        const status = problem instanceof ApiError ? problem.status : 0;
        setError({ message: (problem as Error).message, status });
        if (problem instanceof ApiError && problem.store) {
          reportStore(problem.message);
          // The store is away: read again in a while; the banner says so.
          setTimeout(() => !stopped && setLoads((count) => count + 1), 3000);
        }
      },
    );
    return () => {
      stopped = true;
    };
  }, [id, loads, onTitle]);

  useEffect(() => {
    if (streamFrom === undefined) return;
    const source = new EventSource(
      `/api/sessions/${encodeURIComponent(id)}/live?fromSeq=${streamFrom.fromSeq}&messages=${streamFrom.messages}`,
    );
    const apply = (update: LiveUpdate) => {
      switch (update.type) {
        case 'records':
          setView((current) =>
            current === undefined
              ? current
              : {
                  ...current,
                  status: update.records.some((record) => record.type === 'run_started')
                    ? 'running'
                    : current.status,
                  records: [...current.records, ...update.records],
                  messages: [...current.messages, ...update.messages],
                  lastSeq: update.lastSeq,
                },
          );
          if (update.messages.length > 0) setStreaming('');
          setLiveError(undefined);
          break;
        case 'delta':
          setStreaming((text) => (text + update.text).slice(-4000));
          break;
        case 'mark':
          setView((current) =>
            current === undefined ? current : { ...current, marks: [...current.marks, update.mark] },
          );
          break;
        case 'store_error':
          setLiveError(update.message);
          break;
        case 'changed':
          setLoads((count) => count + 1);
          break;
      }
    };
    for (const type of ['records', 'delta', 'mark', 'store_error', 'changed'])
      source.addEventListener(type, (event) =>
        apply(JSON.parse((event as MessageEvent<string>).data) as LiveUpdate),
      );
    return () => source.close();
  }, [id, streamFrom]);

  const runs = useMemo(
    () =>
      view === undefined
        ? []
        : buildTimeline(view.records, {
            sessionRunning: view.status === 'running',
            marks: view.marks,
            now: Date.now(),
          }),
    [view],
  );

  if (error !== undefined && view === undefined)
    return (
      <section>
        <h1>Session {id}</h1>
        <p class="banner error" role="alert">
          {error.status === 404
            ? 'There is no such session in this store.'
            : 'The session could not be read:'}{' '}
          {error.message}
        </p>
        <p>
          <a href="#/">Back to the sessions</a>
        </p>
      </section>
    );
  if (view === undefined) return <p aria-live="polite">Reading the session…</p>;
  return (
    <article aria-labelledby="session-heading" data-status={view.status}>
      <h1 id="session-heading">{view.title || '(no prompt yet)'}</h1>
      <p class="muted">
        <span class={`status status-${view.status}`} data-testid="session-status">
          {statusLabel(view.status)}
        </span>{' '}
        · <code>{view.id}</code> · updated {formatAge(view.updatedAt)} · {view.messages.length} messages ·{' '}
        {formatTokens(view.usage)} · {formatCost(view.usage.cost)}
      </p>
      {liveError !== undefined && (
        <p class="banner error" role="alert">
          Live updates paused: {liveError}
        </p>
      )}
      {view.problems.length > 0 && (
        <div class="banner error" role="alert">
          <p>
            <strong>Part of this session could not be read.</strong> What could be read is shown below.
          </p>
          <ul>
            {view.problems.map((problem, index) => (
              <li key={index}>
                {problem.part}: {problem.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {lastAnswer !== undefined && view.approvals.length === 0 && <DecisionOutcome answer={lastAnswer} />}
      {view.approvals.length > 0 && (
        <section aria-labelledby="waiting-heading">
          <h2 id="waiting-heading">Waiting for a decision</h2>
          {view.approvals.map((approval) => (
            <ApprovalCard
              key={approval.toolCallId}
              approval={approval}
              canDecide={view.canDecide}
              showSession={false}
              onDecided={(answer) => {
                setLastAnswer(answer);
                setLoads((count) => count + 1);
              }}
            />
          ))}
        </section>
      )}
      <section aria-labelledby="runs-heading">
        <h2 id="runs-heading">Runs</h2>
        {runs.length === 0 && <p class="muted">No run is in the events log.</p>}
        {runs.map((run, index) => (
          <RunTimeline key={run.runId} run={run} index={index} />
        ))}
        {streaming !== '' && (
          <div class="streaming" aria-live="polite">
            <strong>Streaming:</strong> <span>{streaming}</span>
          </div>
        )}
      </section>
      <Conversation sessionId={view.id} messages={view.messages} />
      <PromptBox
        sessionId={view.id}
        disabledBecause={
          !view.canPrompt
            ? 'This studio was started without an agent, so it cannot run a prompt.'
            : view.status === 'running'
              ? 'The session is running.'
              : view.approvals.length > 0
                ? 'Decide the calls that wait first.'
                : undefined
        }
      />
    </article>
  );
}
