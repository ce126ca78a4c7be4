import { useEffect, useRef, useState } from 'preact/hooks';
import type { SessionListPage } from '../shared/studio-data.js';
import { ApiError, getJson } from './api.js';
import { formatAge, formatCost, statusLabel } from './format.js';
import { reportStore } from './store-banner.js';
import { sessionHref } from './use-route.js';

const pageSize = 50;

/**
 * The sessions, newest first, 50 a page: status, title, last activity,
 * messages, calls waiting and cost (read after the page shows, per row). A
 * search by title or id; the first page follows the store every few seconds.
 */
export function SessionsList({ onTitle }: { onTitle: (title: string) => void }) {
  const [query, setQuery] = useState('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState<SessionListPage | undefined>(undefined);
  const [costs, setCosts] = useState<Record<string, number | null>>({});
  const [error, setError] = useState<string | undefined>(undefined);
  const cursor = cursors.at(-1);
  const searchTimer = useRef<number | undefined>(undefined);

  useEffect(() => onTitle('Sessions'), [onTitle]);

  useEffect(() => {
    let stopped = false;
    const load = async () => {
      const parameters = new URLSearchParams({ limit: String(pageSize) });
      if (query !== '') parameters.set('q', query);
      if (cursor !== undefined) parameters.set('cursor', cursor);
      try {
        const loaded = await getJson<SessionListPage>(`/api/sessions?${parameters}`);
        if (stopped) return;
        setPage(loaded);
        setError(undefined);
        reportStore(loaded.storeError);
        const missing = loaded.sessions.filter((row) => !(row.id in costs)).map((row) => row.id);
        if (missing.length > 0) {
          const found = await getJson<{ costs: Record<string, number | null> }>(
            `/api/costs?ids=${missing.map(encodeURIComponent).join(',')}`,
          );
          if (!stopped) setCosts((known) => ({ ...known, ...found.costs }));
        }
      } catch (problem) {
        if (stopped) return;
        setError((problem as Error).message);
        if (problem instanceof ApiError && problem.store) reportStore(problem.message);
      }
    };
    void load();
    // The first page follows new sessions; later pages stay still while read.
    const timer = cursor === undefined ? setInterval(load, 5000) : undefined;
    return () => {
      stopped = true;
      if (timer !== undefined) clearInterval(timer);
    };
    // Costs are read for rows not yet known; a cost arriving is no reason to read the page again.
  }, [query, cursor]);

  const search = (value: string) => {
    window.clearTimeout(searchTimer.current);
    searchTimer.current = window.setTimeout(() => {
      setQuery(value.trim());
      setCursors([undefined]);
    }, 200);
  };

  return (
    <section aria-labelledby="sessions-heading">
      <div class="toolbar">
        <h1 id="sessions-heading">Sessions</h1>
        <label class="search">
          <span>Search by title or id</span>
          <input
            type="search"
            name="q"
            autocomplete="off"
            placeholder="title or id"
            onInput={(event) => search((event.target as HTMLInputElement).value)}
          />
        </label>
      </div>
      {error !== undefined && (
        <p class="banner error" role="alert">
          The sessions could not be listed: {error}
        </p>
      )}
      {page === undefined ? (
        <p aria-live="polite">Reading the sessions…</p>
      ) : (
        <>
          <p class="muted" aria-live="polite">
            {query === ''
              ? `${page.matched.toLocaleString('en')} sessions`
              : `${page.matched.toLocaleString('en')} sessions match “${query}”`}
          </p>
          <table class="sessions">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Title</th>
                <th scope="col">Updated</th>
                <th scope="col" class="number">
                  Messages
                </th>
                <th scope="col" class="number">
                  Waiting
                </th>
                <th scope="col" class="number">
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {page.sessions.map((row) => (
                <tr key={row.id} data-session={row.id}>
                  <td>
                    <span class={`status status-${row.status}`}>{statusLabel(row.status)}</span>
                  </td>
                  <td>
                    <a href={sessionHref(row.id)}>{row.title === '' ? '(no prompt yet)' : row.title}</a>
                    <div class="muted id">{row.id}</div>
                  </td>
                  <td title={row.updatedAt}>{formatAge(row.updatedAt)}</td>
                  <td class="number">{row.messageCount}</td>
                  <td class="number">{row.pendingApprovalCount > 0 ? row.pendingApprovalCount : ''}</td>
                  <td class="number">{row.id in costs ? formatCost(costs[row.id]) : '…'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav class="pager" aria-label="Pages of sessions">
            <button
              type="button"
              disabled={cursors.length === 1}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Previous page
            </button>
            <button
              type="button"
              disabled={page.nextCursor === undefined}
              onClick={() => page.nextCursor !== undefined && setCursors([...cursors, page.nextCursor])}
            >
              Next page
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
