import type { AgentMessage } from '../messages/messages.js';
import type { Provider } from '../provider/provider.js';
import { restoreSession } from '../session/restore-session.js';
import type { SessionEvent } from '../session/session-event.js';
import { SessionManager } from '../session/session-manager.js';
import { newSessionState } from '../session/session-state.js';
import type { SessionStore } from '../session/session-store.js';
import type { SessionSummary } from '../session/session-summary.js';
import { check, checkSameJson } from './assertions.js';
import { samplePendingApproval } from './session-fixtures.js';
import { stepOrchestrator } from './step-orchestrator.js';

const at = (minute: number) => `2026-02-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
const user = (text: string): AgentMessage => ({ role: 'user', content: text });
const answer = (text: string): AgentMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  stopReason: 'end_turn',
});
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };

/** The events one run appends: its start, its messages, and its end for `reason`. */
export function runEvents(
  runId: string,
  messages: readonly AgentMessage[],
  end: { reason: 'completed' | 'await_user' | 'error'; startedAt: string; endedAt: string },
): SessionEvent[] {
  const ended: SessionEvent = {
    type: 'run_ended',
    runId,
    reason: end.reason,
    usage,
    at: end.endedAt,
    ...(end.reason === 'await_user' ? { pendingApprovals: [samplePendingApproval('call_w1')] } : {}),
  };
  return [
    { type: 'run_started', runId, at: end.startedAt },
    ...messages.map((message): SessionEvent => ({ type: 'message', message })),
    ended,
  ];
}

async function summary(store: SessionStore, id: string): Promise<SessionSummary> {
  const found = (await store.list({ limit: 1000 })).sessions.find((listed) => listed.id === id);
  check(found !== undefined, `session '${id}' should be listed`);
  return found;
}

/** A model that answers every request with one text reply. */
const echoProvider: Provider = {
  name: 'conformance',
  async *stream(request) {
    yield { type: 'done', message: answer(`reply to ${request.messages.length} messages`) as never };
  },
};

/** The checks of what `list` tells: every store's summaries follow saves and appends. */
export const summaryChecks: Record<string, (store: SessionStore) => Promise<void>> = {
  async 'a summary carries message count, title and approvals waiting from a save'(store) {
    const state = newSessionState({ id: 'titled' });
    state.messages = [user('  Plan   the\nrelease  '), answer('Sure.'), user('And the notes?')];
    await store.save(state, { expectedVersion: 0 });
    const listed = await summary(store, 'titled');
    check(listed.messageCount === 3, `messageCount should be 3, got ${listed.messageCount}`);
    check(
      listed.title === 'Plan the release',
      `the title is the first prompt, folded: got '${listed.title}'`,
    );
    check(listed.pendingApprovalCount === 0, 'no approvals wait');

    const long = newSessionState({ id: 'long', messages: [user('word '.repeat(40))] });
    await store.save(long, { expectedVersion: 0 });
    const cut = (await summary(store, 'long')).title;
    check(cut.length === 80 && cut.endsWith('…'), `a long prompt is cut to 80 characters: got ${cut.length}`);

    const named = newSessionState({
      id: 'named',
      metadata: { title: 'Release plan' },
      messages: [user('hi')],
    });
    await store.save(named, { expectedVersion: 0 });
    check((await summary(store, 'named')).title === 'Release plan', 'metadata.title wins over the prompt');
    const empty = await summary(store, 'long');
    check(empty.status === 'idle' && empty.version === 1, 'a new session is idle at version 1');
  },

  async 'a summary follows every append: running, the end status, time, messages and approvals'(store) {
    await store.save(newSessionState({ id: 'live' }), { expectedVersion: 0 });
    // A run holds the session's lease, in a store that has them: a running session without one is not running.
    const lease = await store.lease?.('live');
    const [start, ...rest] = runEvents('r1', [user('deploy it'), answer('asking')], {
      reason: 'await_user',
      startedAt: at(1),
      endedAt: at(2),
    });
    await store.append('live', [start as SessionEvent, rest[0] as SessionEvent], { operationId: 'a', lease });
    let listed = await summary(store, 'live');
    check(listed.status === 'running', `after a run starts the status is running, got ${listed.status}`);
    check(listed.updatedAt === at(1), `updatedAt is the run's start, got ${listed.updatedAt}`);
    check(
      listed.messageCount === 1 && listed.title === 'deploy it',
      'the prompt is counted and is the title',
    );

    await store.append('live', rest.slice(1), { operationId: 'b', lease });
    await lease?.release();
    listed = await summary(store, 'live');
    check(listed.status === 'await_user', `a paused run leaves await_user, got ${listed.status}`);
    check(listed.pendingApprovalCount === 1, `one approval waits, got ${listed.pendingApprovalCount}`);
    check(listed.updatedAt === at(2) && listed.messageCount === 2, 'the end time and both messages');

    await store.append(
      'live',
      runEvents('r2', [answer('failed')], { reason: 'error', startedAt: at(3), endedAt: at(4) }),
      {
        operationId: 'c',
      },
    );
    listed = await summary(store, 'live');
    check(listed.status === 'failed', `a run that ended with an error leaves failed, got ${listed.status}`);
    check(listed.pendingApprovalCount === 0, 'its end leaves no approval waiting');

    await store.append(
      'live',
      runEvents('r3', [user('again'), answer('done')], {
        reason: 'completed',
        startedAt: at(5),
        endedAt: at(6),
      }),
      {
        operationId: 'd',
      },
    );
    listed = await summary(store, 'live');
    check(listed.status === 'idle' && listed.messageCount === 5, 'a completed run leaves idle, 5 messages');
    check(listed.title === 'deploy it', 'the title stays the first prompt');
  },

  async 'lists by last activity: a run in an older session moves it first'(store) {
    const older = newSessionState({ id: 'older' });
    older.createdAt = older.updatedAt = at(1);
    const newer = newSessionState({ id: 'newer' });
    newer.createdAt = newer.updatedAt = at(2);
    await store.save(older, { expectedVersion: 0 });
    await store.save(newer, { expectedVersion: 0 });
    const ids = async () => (await store.list()).sessions.map((listed) => listed.id);
    checkSameJson(await ids(), ['newer', 'older'], 'the order before any run');
    await store.append(
      'older',
      runEvents('r', [user('hi'), answer('hello')], {
        reason: 'completed',
        startedAt: at(3),
        endedAt: at(4),
      }),
      {
        operationId: 'run',
      },
    );
    checkSameJson(await ids(), ['older', 'newer'], 'the order after a run in the older one');
  },

  async 'an approvals inbox is list() plus one load per waiting session'(store) {
    for (const [index, id] of ['quiet', 'waiting', 'done'].entries()) {
      await store.save(newSessionState({ id }), { expectedVersion: 0 });
      await store.append(
        id,
        runEvents(`run-${id}`, [user(`task ${id}`), answer('ok')], {
          reason: id === 'waiting' ? 'await_user' : 'completed',
          startedAt: at(index * 2 + 1),
          endedAt: at(index * 2 + 2),
        }),
        { operationId: 'run' },
      );
    }
    const waiting = (await store.list()).sessions.filter((listed) => listed.status === 'await_user');
    checkSameJson(
      waiting.map((listed) => [listed.id, listed.pendingApprovalCount]),
      [['waiting', 1]],
      'the sessions waiting for a decision',
    );
    const loaded = await restoreSession(store, 'waiting');
    checkSameJson(
      loaded.state.pendingApprovals.map((approval) => approval.toolCallId),
      ['call_w1'],
      'the pending calls of the waiting session',
    );
  },

  async 'a session repaired after a crash and then run to its end is listed idle, not interrupted'(store) {
    await store.save(newSessionState({ id: 'crashed' }), { expectedVersion: 0 });
    // A run that started and never ended: its process stopped.
    await store.append(
      'crashed',
      [
        { type: 'run_started', runId: 'lost', at: at(1) },
        { type: 'message', message: user('first') },
      ],
      { operationId: 'lost' },
    );
    const manager = new SessionManager({
      store,
      agentOptions: () => ({ provider: echoProvider, model: 'm', orchestrator: stepOrchestrator }),
    });
    const session = await manager.get('crashed');
    check(
      session.status === 'interrupted',
      `the crashed run is repaired to interrupted, got ${session.status}`,
    );
    check((await summary(store, 'crashed')).status === 'interrupted', 'and listed so');
    const result = await session.prompt('second').result();
    check(result.terminateReason === 'completed', `the next prompt completes, got ${result.terminateReason}`);
    const listed = await summary(store, 'crashed');
    check(
      listed.status === 'idle',
      `after a run to its end the session is listed idle, got ${listed.status}`,
    );
    check(listed.messageCount === 3, `first, second and the answer: got ${listed.messageCount}`);
    check(listed.title === 'first', `the title is the first prompt, got '${listed.title}'`);
  },

  async 'a save of a state that could not be read back is refused and writes nothing'(store) {
    const bad = { ...newSessionState({ id: 'bad' }), metadata: 'oops' as unknown as Record<string, unknown> };
    const refused = await store.save(bad, { expectedVersion: 0 }).then(
      () => undefined,
      (error: unknown) => error as { code?: string },
    );
    check(
      refused?.code === 'invalid_session_state',
      `expected invalid_session_state, got ${String(refused?.code)}`,
    );
    const found = await store.load('bad').then(
      () => 'stored',
      (error: { code?: string }) => error.code,
    );
    check(found === 'session_not_found', `nothing may be stored, got ${found}`);

    const good = newSessionState({ id: 'kept', messages: [user('hi')] });
    await store.save(good, { expectedVersion: 0 });
    const broken = { ...good, version: 1, messages: [{ role: 'user' } as unknown as AgentMessage] };
    const second = await store.save(broken, { expectedVersion: 1 }).then(
      () => undefined,
      (error: unknown) => error as { code?: string },
    );
    check(second?.code === 'invalid_session_state', 'a message without its fields is refused');
    const kept = await store.load('kept');
    check(kept.version === 1 && kept.messages.length === 1, 'the stored session is unchanged');
  },
};
