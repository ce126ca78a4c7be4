import { randomBytes, timingSafeEqual } from 'node:crypto';

/** How many browser sessions one studio remembers; the oldest is forgotten past this. */
const browserSessionLimit = 1_000;

/** A browser that showed the token: its cookie value and the CSRF token its page sends with every change. */
export interface BrowserSession {
  cookie: string;
  csrf: string;
}

/**
 * Who may use a studio: the token printed in its address, exchanged once per
 * browser for a random cookie value (so the token leaves the address bar and
 * history at once) and a CSRF token. The cookie is HttpOnly and
 * SameSite=Strict; its name carries the port, because cookies are not kept
 * apart by port and two studios on one host would otherwise sign each other out.
 */
export class StudioAccess {
  readonly token: string;
  readonly #sessions = new Map<string, BrowserSession>();
  #cookieName = 'agent_core_studio';

  constructor(token?: string) {
    this.token = token ?? randomBytes(24).toString('base64url');
  }

  /** The cookie's name, once the port is known. */
  get cookieName(): string {
    return this.#cookieName;
  }

  listeningOn(port: number): void {
    this.#cookieName = `agent_core_studio_${port}`;
  }

  /** A new browser session for the right token; undefined for any other. */
  exchange(token: string | undefined): BrowserSession | undefined {
    if (token === undefined || !sameSecret(token, this.token)) return undefined;
    const session = {
      cookie: randomBytes(24).toString('base64url'),
      csrf: randomBytes(24).toString('base64url'),
    };
    this.#sessions.set(session.cookie, session);
    if (this.#sessions.size > browserSessionLimit)
      this.#sessions.delete(this.#sessions.keys().next().value as string);
    return session;
  }

  /** The browser session of a cookie value, if the studio made it. */
  session(cookie: string | undefined): BrowserSession | undefined {
    if (cookie === undefined || cookie.length === 0) return undefined;
    const session = this.#sessions.get(cookie);
    // The map lookup finds it; the comparison keeps the check constant-time on the value itself.
    return session !== undefined && sameSecret(cookie, session.cookie) ? session : undefined;
  }

  /** Whether `given` is the CSRF token of `session`. */
  csrfMatches(session: BrowserSession, given: string | undefined): boolean {
    return given !== undefined && sameSecret(given, session.csrf);
  }
}

function sameSecret(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}
