import { useEffect, useState } from 'preact/hooks';
import { ApprovalsInbox } from './approvals-inbox.js';
import { SessionPage } from './session-page.js';
import { SessionsList } from './sessions-list.js';
import { StoreBanner, useStoreStatus } from './store-banner.js';
import { useRoute } from './use-route.js';

/** The studio's page: a header with its sections, the store's banner when it fails, and the section shown. */
export function App() {
  const route = useRoute();
  const status = useStoreStatus();
  const [title, setTitle] = useState('');
  useEffect(() => {
    document.title = title === '' ? 'agent-core studio' : `${title} · agent-core studio`;
  }, [title]);
  return (
    <>
      <a class="skip" href="#content">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">agent-core studio</span>
        <nav aria-label="Sections">
          <a href="#/" aria-current={route.page === 'sessions' ? 'page' : undefined}>
            Sessions
          </a>
          <a href="#/approvals" aria-current={route.page === 'approvals' ? 'page' : undefined}>
            Approvals
          </a>
        </nav>
      </header>
      <StoreBanner status={status} />
      <main id="content" tabIndex={-1}>
        {route.page === 'sessions' && <SessionsList onTitle={setTitle} />}
        {route.page === 'approvals' && <ApprovalsInbox onTitle={setTitle} />}
        {route.page === 'session' && <SessionPage key={route.id} id={route.id} onTitle={setTitle} />}
      </main>
    </>
  );
}
