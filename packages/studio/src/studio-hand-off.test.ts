import {
  ApprovalError,
  type ApprovalDecision,
  ConfigError,
  MemorySessionStore,
  restoreSession,
} from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import type { DecisionHandOff, HandOffDecisions } from './decision-hand-off.js';
import type { DecisionAnswer, SessionView } from './shared/studio-data.js';
import { startStudio } from './start-studio.js';
import {
  type NoteLog,
  resumeElsewhere,
  sampleAgentOptions,
  storeSampleSessions,
} from './test-support/sample-sessions.js';
import { signIn } from './test-support/signed-in.js';
import { useTestStudios } from './test-support/test-studio.js';

const testStudio = useTestStudios();

/** A hand-off that records what it was given and answers with `answer` (or throws what it throws). */
function recordingHandOff(answer: () => Promise<DecisionHandOff | undefined>) {
  const calls: { sessionId: string; decisions: readonly ApprovalDecision[] }[] = [];
  const handOff: HandOffDecisions = (sessionId, decisions) => {
    calls.push({ sessionId, decisions });
    return answer();
  };
  return { calls, handOff };
}

/** A studio over the samples whose decisions go through `handOff`; `agents` counts the agents it made. */
async function studioWith(handOff: HandOffDecisions, options: { withAgent?: boolean } = {}) {
  const store = new MemorySessionStore();
  await storeSampleSessions(store);
  const log: NoteLog = [];
  const agents = { made: 0 };
  const studio = await testStudio({
    store,
    ...(options.withAgent === false
      ? {}
      : {
          agentOptions: () => {
            agents.made++;
            return sampleAgentOptions(log);
          },
        }),
    handOffDecisions: handOff,
    listRefreshMs: 10,
  });
  return { store, log, agents, client: await signIn(studio) };
}

async function decide(
  client: Awaited<ReturnType<typeof signIn>>,
  body: unknown = { decisions: [{ toolCallId: 'call-edit', decision: 'allow' }] },
): Promise<{ status: number; answer: DecisionAnswer }> {
  const response = await client.post('/api/sessions/sample-waiting/decisions', body);
  return { status: response.status, answer: (await response.json()) as DecisionAnswer };
}

describe('a studio whose app takes decisions over', () => {
  it('hands the bound decision to the app, reports it enqueued, and resumes nothing itself', async () => {
    const { calls, handOff } = recordingHandOff(async () => ({
      outcome: 'enqueued',
      operationId: 'decide:sample-waiting:7',
      state: 'queued',
    }));
    const { store, log, agents, client } = await studioWith(handOff);
    const view = (await (await client.get('/api/sessions/sample-waiting')).json()) as SessionView;
    const waiting = view.approvals[0];
    const { status, answer } = await decide(client);
    expect(status).toBe(202);
    expect(answer).toEqual({
      outcome: 'enqueued',
      operationId: 'decide:sample-waiting:7',
      state: 'queued',
      alreadyEnqueued: false,
      message: expect.stringContaining(
        'operation decide:sample-waiting:7 (queued): a worker resumes the run',
      ),
    });
    const { state } = await restoreSession(store, 'sample-waiting');
    expect(calls).toEqual([
      {
        sessionId: 'sample-waiting',
        decisions: [
          { toolCallId: 'call-edit', inputHash: state.pendingApprovals[0]?.inputHash, decision: 'allow' },
        ],
      },
    ]);
    expect(waiting?.toolCallId).toBe('call-edit');
    // Nothing ran here and no agent was made: the session still waits, for the worker to resume it.
    expect(log).toEqual([]);
    expect(agents.made).toBe(0);
    expect(state.status).toBe('await_user');

    // The worker's run applies it; a second decision of the same pause says what became of the call.
    const elsewhere: NoteLog = [];
    await resumeElsewhere(store, elsewhere);
    const again = await decide(client);
    expect(again.status).toBe(409);
    expect(again.answer).toMatchObject({
      outcome: 'already_decided',
      decided: [
        { toolCallId: 'call-edit', toolName: 'edit_file', isError: false, result: 'Edited notes.md.' },
      ],
    });
    expect(calls).toHaveLength(1);
    expect(elsewhere).toHaveLength(1);
    expect(log).toEqual([]);
  });

  it('says so when the same decision was enqueued before, and passes a denial with its reason', async () => {
    const { calls, handOff } = recordingHandOff(async () => ({
      outcome: 'enqueued',
      operationId: 'op-1',
      alreadyEnqueued: true,
    }));
    const { log, client } = await studioWith(handOff);
    const { status, answer } = await decide(client, {
      decisions: [{ toolCallId: 'call-edit', decision: 'deny', reason: 'not that file' }],
    });
    expect(status).toBe(202);
    expect(answer).toMatchObject({ outcome: 'enqueued', operationId: 'op-1', alreadyEnqueued: true });
    expect((answer as { message: string }).message).toContain('already enqueued as operation op-1');
    expect(calls[0]?.decisions).toEqual([
      expect.objectContaining({ toolCallId: 'call-edit', decision: 'deny', reason: 'not that file' }),
    ]);
    expect(log).toEqual([]);
  });

  it('resumes the run in its own process when the app answers undefined', async () => {
    const { calls, handOff } = recordingHandOff(async () => undefined);
    const { store, log, client } = await studioWith(handOff);
    const { status, answer } = await decide(client);
    expect(status).toBe(200);
    expect(answer.outcome).toBe('resumed');
    for (let tries = 0; (await restoreSession(store, 'sample-waiting')).state.status !== 'idle'; tries++) {
      if (tries > 500) throw new Error('the resumed run never ended');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(log).toEqual(['notes.md:one\ntwo\n']);
    expect(calls).toHaveLength(1);
  });

  it("reports the app's errors: another decider first, nothing waiting, a refusal, a failure, a bad answer", async () => {
    const throws: unknown[] = [
      new ApprovalError('approval_claimed', 'Another process already decided session sample-waiting.'),
      new ApprovalError('approval_already_decided', 'Session sample-waiting has no tool call waiting.'),
      new ConfigError('The run queue has no tables: start a worker first.'),
      new Error('connection refused by db.internal'),
    ];
    let next = 0;
    const { calls, handOff } = recordingHandOff(async () => {
      const thrown = throws[next++];
      if (thrown !== undefined) throw thrown;
      return { outcome: 'queued', id: 'x' } as unknown as DecisionHandOff;
    });
    const { store, log, client } = await studioWith(handOff);
    const claimed = await decide(client);
    expect(claimed.status).toBe(409);
    expect(claimed.answer).toEqual({
      outcome: 'claimed_elsewhere',
      message: expect.stringContaining('Another process already decided'),
    });
    const nothing = await decide(client);
    expect(nothing.answer).toMatchObject({ outcome: 'already_decided', decided: [] });
    const refused = await decide(client);
    expect(refused.answer).toMatchObject({
      outcome: 'refused',
      code: 'invalid_config',
      message: expect.stringContaining('start a worker first'),
    });
    const failed = await client.post('/api/sessions/sample-waiting/decisions', {
      decisions: [{ toolCallId: 'call-edit', decision: 'allow' }],
    });
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { error: string }).error).toContain('connection refused');
    const bad = await client.post('/api/sessions/sample-waiting/decisions', {
      decisions: [{ toolCallId: 'call-edit', decision: 'allow' }],
    });
    expect(bad.status).toBe(500);
    expect(((await bad.json()) as { error: string }).error).toContain(
      'handOffDecisions resolved {"outcome":"queued","id":"x"}: it must resolve { outcome: \'enqueued\', operationId }',
    );
    expect(calls).toHaveLength(5);
    // None of them ran or resumed anything here.
    expect(log).toEqual([]);
    expect((await restoreSession(store, 'sample-waiting')).state.status).toBe('await_user');
  });

  it('without an agent: decides through the app, refuses what the app leaves, and never asks it about unknown calls', async () => {
    let answer: DecisionHandOff | undefined;
    const { calls, handOff } = recordingHandOff(async () => answer);
    const { client } = await studioWith(handOff, { withAgent: false });
    const view = (await (await client.get('/api/sessions/sample-waiting')).json()) as SessionView;
    expect(view.canDecide).toBe(true);
    expect(view.canPrompt).toBe(false);
    const left = await decide(client);
    expect(left.answer).toEqual({
      outcome: 'refused',
      message: expect.stringContaining('no agent to resume the run itself'),
    });
    const unknown = await decide(client, { decisions: [{ toolCallId: 'call-forged', decision: 'allow' }] });
    expect(unknown.answer).toEqual({
      outcome: 'refused',
      message: expect.stringContaining("no tool call 'call-forged'"),
    });
    answer = { outcome: 'enqueued', operationId: 'op-2' };
    expect((await decide(client)).answer).toMatchObject({ outcome: 'enqueued', operationId: 'op-2' });
    expect(calls).toHaveLength(2);
    const prompt = await client.post('/api/sessions/sample-answered/prompt', { text: 'hello' });
    expect(prompt.status).toBe(409);
  });

  it('refuses a handOffDecisions that is not a function', async () => {
    await expect(
      startStudio({
        store: new MemorySessionStore(),
        handOffDecisions: 'queue' as unknown as HandOffDecisions,
      }),
    ).rejects.toThrow(/handOffDecisions must be a function/);
  });
});
