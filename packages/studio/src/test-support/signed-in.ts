import type { StudioServer } from '../start-studio.js';

/** A client of a studio that signed in as a browser does: the token exchanged for the cookie, the page's CSRF token read. */
export interface SignedIn {
  cookie: string;
  csrf: string;
  get(path: string): Promise<Response>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

/** Signs in to `studio` with its printed address, as a browser would. */
export async function signIn(studio: StudioServer): Promise<SignedIn> {
  const entry = await fetch(studio.url, { redirect: 'manual' });
  if (entry.status !== 303) throw new Error(`signing in answered ${entry.status}`);
  const cookie = (entry.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const page = await (await fetch(`${studio.origin}/`, { headers: { cookie } })).text();
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page)?.[1] ?? '';
  return {
    cookie,
    csrf,
    get: (path) => fetch(`${studio.origin}${path}`, { headers: { cookie } }),
    post: (path, body, headers = {}) =>
      fetch(`${studio.origin}${path}`, {
        method: 'POST',
        headers: {
          cookie,
          origin: studio.origin,
          'content-type': 'application/json',
          'x-csrf-token': csrf,
          ...headers,
        },
        body: JSON.stringify(body),
      }),
  };
}
