import { useEffect, useState } from 'preact/hooks';

/** Where the page is: the sessions list, one session, or the approvals inbox (from the address's hash). */
export type Route = { page: 'sessions' } | { page: 'session'; id: string } | { page: 'approvals' };

/** The route of a hash: `#/`, `#/sessions/ID`, `#/approvals`. */
export function routeOf(hash: string): Route {
  const path = hash.replace(/^#/, '');
  const session = /^\/sessions\/([^/]+)$/.exec(path);
  if (session !== null) return { page: 'session', id: decodeURIComponent(session[1] as string) };
  if (path === '/approvals') return { page: 'approvals' };
  return { page: 'sessions' };
}

/** The current route, following the address's hash (links, back and forward). */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    const follow = () => setRoute(routeOf(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}

/** The hash of a session's page. */
export function sessionHref(id: string): string {
  return `#/sessions/${encodeURIComponent(id)}`;
}
