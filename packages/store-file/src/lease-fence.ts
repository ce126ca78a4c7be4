import { resolve } from 'node:path';
import { ConfigError, type SessionLease } from '@agent-core/core';
import type { HeldLock } from './held-lock.js';

/** Where a lease from `FileSessionStore.lease` keeps what a write checks; module-private, so no other object can pass for one. */
const leaseState = Symbol('FileSessionStore lease');

interface LeaseState {
  sessionId: string;
  /** The session folder, resolved, so stores on the same root spelled two ways still recognise it. */
  folder: string;
  held: HeldLock;
}

/** The `SessionLease` handed out for a held `.run`: `release()` plus, hidden, what a write needs to check it. */
export function leaseHandle(sessionId: string, folder: string, held: HeldLock): SessionLease {
  const state: LeaseState = { sessionId, folder: resolve(folder), held };
  return { release: () => held.release(), [leaseState]: state } as SessionLease;
}

/**
 * The check a write under `lease` makes first: the `.run` of the session
 * still holds the lease's token (a stat when it is the file last seen holding
 * it, untouched since; a small read when not), after renewing it when its
 * heartbeat fell behind. Throws `SessionLeaseLostError` once another process
 * took the session over, even after that one let it go; `ConfigError` for a
 * lease that is not a `FileSessionStore`'s, belongs to another session or
 * root, or was released. Does nothing without a lease.
 */
export async function checkLease(
  lease: SessionLease | undefined,
  sessionId: string,
  folder: string,
): Promise<void> {
  if (lease === undefined) return;
  const state = (lease as { [leaseState]?: LeaseState })[leaseState];
  if (state === undefined)
    throw new ConfigError(
      `The lease passed with a write of session '${sessionId}' was not taken from a FileSessionStore (of this copy of @agent-core/store-file). Pass the lease that store.lease('${sessionId}') returned, or none.`,
    );
  if (state.sessionId !== sessionId || state.folder !== resolve(folder))
    throw new ConfigError(
      `The lease of session '${state.sessionId}' in ${state.folder} was passed with a write of session '${sessionId}' in ${resolve(folder)}. Pass that session's own lease.`,
    );
  await state.held.confirm();
}
