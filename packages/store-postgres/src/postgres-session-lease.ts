import { ConfigError, type Logger, type SessionLease } from '@agent-core/core';

/** What a lease needs of its store: renew it, give it back. */
export interface LeaseKeeper {
  /** Pushes the expiry out; false when the lease is no longer this holder's (taken over, released or deleted). */
  renew(sessionId: string, token: string): Promise<boolean>;
  release(sessionId: string, token: string): Promise<void>;
  logger: Logger;
}

const tokens = new WeakMap<SessionLease, { sessionId: string; token: string }>();

/**
 * A session's run lease from `PostgresSessionStore.lease`. `token` is its
 * fencing token: every lease of the session gets a larger one, so a write
 * passing an older lease is refused once a newer one was granted, whether the
 * newer holder still has it or has given it back. While held it is renewed
 * every third of the store's `leaseDurationMs`, on a timer that never keeps
 * the process alive.
 */
export class PostgresSessionLease implements SessionLease {
  readonly sessionId: string;
  /** The fencing token, a decimal bigint: larger for every later lease of the session. */
  readonly token: string;
  readonly #keeper: LeaseKeeper;
  #timer: ReturnType<typeof setInterval> | undefined;
  #renewing = false;
  #released: Promise<void> | undefined;

  /** Made by the store; `renewEveryMs` 0 never renews. */
  constructor(keeper: LeaseKeeper, sessionId: string, token: string, renewEveryMs: number) {
    this.sessionId = sessionId;
    this.token = token;
    this.#keeper = keeper;
    tokens.set(this, { sessionId, token });
    if (renewEveryMs > 0) {
      this.#timer = setInterval(() => void this.#renew(), renewEveryMs);
      this.#timer.unref?.();
    }
  }

  /** Gives the lease back, if it is still this holder's, and stops renewing it. Calling it again does nothing once it succeeded. */
  release(): Promise<void> {
    this.stopRenewing();
    this.#released ??= this.#keeper.release(this.sessionId, this.token).catch((error: unknown) => {
      // A failed release may be tried again; until then the lease lapses on its own.
      this.#released = undefined;
      throw error;
    });
    return this.#released;
  }

  /** Stops the renewals, leaving the lease to lapse: what `close()` does to the leases it still holds. */
  stopRenewing(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #renew(): Promise<void> {
    if (this.#renewing) return;
    this.#renewing = true;
    try {
      if (!(await this.#keeper.renew(this.sessionId, this.token))) {
        this.stopRenewing();
        this.#keeper.logger.warn(
          'a session lease was taken over or released elsewhere; it is no longer renewed, and writes under it are refused',
          { sessionId: this.sessionId, token: this.token },
        );
      }
    } catch (error) {
      // The server may be restarting: try again at the next tick; the lease lapses only if it stays away.
      this.#keeper.logger.debug('a session lease could not be renewed now', {
        sessionId: this.sessionId,
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      this.#renewing = false;
    }
  }
}

/** The fencing token a write passes, checked to be a lease of this kind for this session; undefined without a lease. */
export function leaseToken(lease: SessionLease | undefined, sessionId: string): string | undefined {
  if (lease === undefined) return undefined;
  const held = tokens.get(lease);
  if (held === undefined) {
    throw new ConfigError(
      'The lease passed is not one a PostgresSessionStore gave: pass the lease from store.lease(id) of a PostgresSessionStore.',
    );
  }
  if (held.sessionId !== sessionId) {
    throw new ConfigError(
      `The lease passed is session '${held.sessionId}'s, not '${sessionId}'s: pass the lease of the session written.`,
    );
  }
  return held.token;
}
