/** An answer other than 2xx: its status, the server's sentence, and whether the store was the cause. */
export class ApiError extends Error {
  readonly status: number;
  readonly store: boolean;
  readonly body: unknown;

  constructor(status: number, message: string, store: boolean, body: unknown) {
    super(message);
    this.status = status;
    this.store = store;
    this.body = body;
  }
}

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

async function answer<Body>(response: Response): Promise<Body> {
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok && response.status !== 409) {
    const message = typeof body.error === 'string' ? body.error : `The studio answered ${response.status}.`;
    throw new ApiError(response.status, message, body.store === true || response.status === 503, body);
  }
  return body as Body;
}

/** GETs JSON from the studio's API. */
export async function getJson<Body>(path: string): Promise<Body> {
  return answer<Body>(
    await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } }),
  );
}

/** POSTs JSON with the page's CSRF token; a 409 (already decided, claimed elsewhere) is an answer, not an error. */
export async function postJson<Body>(path: string, body: unknown): Promise<Body> {
  return answer<Body>(
    await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken() },
      body: JSON.stringify(body),
    }),
  );
}
