import type { AgentMessage } from '../messages/messages.js';
import type { Provider } from '../provider/provider.js';
import { maxSessionMetadataDepth, maxSessionPartDepth } from '../session/session-depth-problem.js';
import type { SessionEvent } from '../session/session-event.js';
import { SessionManager } from '../session/session-manager.js';
import { newSessionState } from '../session/session-state.js';
import { check, checkRejects, checkSameJson } from './assertions.js';
import type { StoreCheck } from './lease-checks.js';
import { stepOrchestrator } from './step-orchestrator.js';

/** An object nested exactly `levels` levels deep (`{}` is one level), built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < levels; level++) value = { a: value };
  return value;
}

/** The JSON text of `nested(levels)`, made as text: `JSON.stringify` itself overflows the stack a few thousand levels down. */
function nestedJson(levels: number): string {
  return `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
}

/** An app-defined message nested exactly `levels` levels deep, the message itself included. */
function deepMessage(levels: number): AgentMessage {
  return { role: 'note', data: nested(levels - 1) } as unknown as AgentMessage;
}

/** Far past any limit: deep enough that copying or serialising it recursively overflows the stack. */
const overflowing = 100_000;

const silentProvider: Provider = {
  name: 'conformance',
  async *stream() {
    yield {
      type: 'done',
      message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn' },
    };
  },
};

/** The checks of the depth limits on writes: every store refuses, with a typed error, what it could not read back. */
export const depthChecks: Record<string, StoreCheck> = {
  async 'refuses metadata nested past the limit with InvalidSessionStateError naming the field, storing nothing'(
    store,
  ) {
    for (const levels of [maxSessionMetadataDepth + 1, overflowing]) {
      const error = await checkRejects(
        () => store.save(newSessionState({ id: 'deep', metadata: nested(levels) }), { expectedVersion: 0 }),
        'invalid_session_state',
        `saving metadata nested ${levels} levels deep`,
      );
      check(
        (error as { field?: string }).field === 'metadata' &&
          error.message.includes(String(maxSessionMetadataDepth)),
        `the refusal should name the field 'metadata' and the limit ${maxSessionMetadataDepth}, got: ${error.message}`,
      );
    }
    await checkRejects(
      () => store.load('deep'),
      'session_not_found',
      'loading a session whose saves were refused',
    );
    check((await store.list()).sessions.length === 0, 'a refused save lists nothing');
    const atLimit = newSessionState({ id: 'at-limit', metadata: nested(maxSessionMetadataDepth) });
    await store.save(atLimit, { expectedVersion: 0 });
    checkSameJson(
      (await store.load('at-limit')).metadata,
      atLimit.metadata,
      'metadata nested exactly at the limit',
    );
  },

  async 'refuses a message nested past the limit, naming it, and keeps one at the limit'(store) {
    const error = await checkRejects(
      () =>
        store.save(
          newSessionState({
            id: 'deep-message',
            messages: [{ role: 'user', content: 'hello' }, deepMessage(maxSessionPartDepth + 1)],
          }),
          { expectedVersion: 0 },
        ),
      'invalid_session_state',
      `saving a message nested ${maxSessionPartDepth + 1} levels deep`,
    );
    check(
      (error as { field?: string }).field === 'messages.1' &&
        error.message.includes(String(maxSessionPartDepth)),
      `the refusal should name the field 'messages.1' and the limit ${maxSessionPartDepth}, got: ${error.message}`,
    );
    await checkRejects(() => store.load('deep-message'), 'session_not_found', 'loading a refused session');
    const atLimit = newSessionState({ id: 'deep-message', messages: [deepMessage(maxSessionPartDepth)] });
    await store.save(atLimit, { expectedVersion: 0 });
    checkSameJson(
      (await store.load('deep-message')).messages,
      atLimit.messages,
      'a message nested at the limit',
    );
  },

  async 'refuses a log entry nested past the limit, appending nothing'(store) {
    await store.save(newSessionState({ id: 'deep-log' }), { expectedVersion: 0 });
    for (const levels of [maxSessionPartDepth + 1, overflowing]) {
      const entries: SessionEvent[] = [
        { type: 'run_started', runId: 'run-1', at: '2026-01-01T00:00:00.000Z' },
        { type: 'message', message: deepMessage(levels) },
      ];
      const error = await checkRejects(
        () => store.append('deep-log', entries, { operationId: `deep-${levels}` }),
        'invalid_session_state',
        `appending a message nested ${levels} levels deep`,
      );
      check(
        (error as { field?: string }).field === 'entries.1.message',
        `the refusal should name the entry's field 'entries.1.message', got: ${error.message}`,
      );
    }
    check(
      (await store.read('deep-log')).length === 0,
      'a refused append writes no entry, not even the ones before',
    );
    const range = await store.append(
      'deep-log',
      [{ type: 'message', message: deepMessage(maxSessionPartDepth) }],
      { operationId: 'at-limit' },
    );
    checkSameJson(range, { firstSeq: 1, lastSeq: 1 }, 'the append after refused ones');
  },
};

/**
 * The checks of the depth limits on reads, for a store whose stored data the
 * suite can replace (`writeRawSnapshot`): what no agent-core writes is
 * `SessionCorruptError`, never a stack overflow.
 */
export const storedDepthChecks: Record<string, StoreCheck> = {
  async 'a stored state nested past the limits loads as SessionCorruptError naming the field'(
    store,
    options,
  ) {
    const write = options.writeRawSnapshot;
    check(write !== undefined, 'these checks need the writeRawSnapshot option');
    const valid = JSON.stringify(newSessionState({ id: 'stored-deep', metadata: { title: 'marker' } }));
    const cases: [string, string, string][] = [
      ['metadata', '"metadata":{"title":"marker"}', `"metadata":${nestedJson(maxSessionMetadataDepth + 1)}`],
      ['metadata', '"metadata":{"title":"marker"}', `"metadata":${nestedJson(overflowing)}`],
      ['messages.0', '"messages":[]', `"messages":[{"role":"note","data":${nestedJson(overflowing)}}]`],
    ];
    await store.save(newSessionState({ id: 'stored-deep' }), { expectedVersion: 0 });
    const manager = new SessionManager({
      store,
      agentOptions: () => ({
        provider: silentProvider,
        model: 'conformance',
        orchestrator: stepOrchestrator,
      }),
    });
    for (const [field, from, to] of cases) {
      check(valid.includes(from), `the valid snapshot holds ${from}`);
      await write(store, 'stored-deep', valid.replace(from, to));
      const error = await checkRejects(
        () => store.load('stored-deep'),
        'session_corrupt',
        `loading a stored ${field} nested past its limit`,
      );
      check(
        (error as { field?: string }).field === field,
        `the SessionCorruptError should name the field '${field}', got: ${error.message}`,
      );
      await checkRejects(
        () => manager.get('stored-deep'),
        'session_corrupt',
        `SessionManager.get of the same`,
      );
      await store.list();
    }
  },
};
