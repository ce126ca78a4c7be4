import { describe, expect, it } from 'vitest';
import { historyProblems } from '../messages/history-problems.js';
import type {
  AgentMessage,
  AgentResult,
  AssistantMessage,
  ModelRequest,
  Provider,
  RunJournal,
  SessionStore,
  ToolCallBlock,
} from '../index.js';
import { ApprovalError, policies } from '../index.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { MemorySessionStore } from './memory-session-store.js';
import type { Session } from './session.js';
import { SessionManager } from './session-manager.js';
import { writeFileTool } from '../test-support/write-file-tool.js';
import { stepAgent } from '../test-support/step-agent.js';

/** Asks for one write, then answers with the result it saw: each reply depends only on the request. */
const provider: Provider = {
  name: 'scripted',
  async *stream(request: ModelRequest) {
    const result = request.messages.find((message) => message.role === 'toolResult');
    const message: AssistantMessage =
      result === undefined
        ? {
            role: 'assistant',
            content: [{ type: 'toolCall', id: 'w1', name: 'write_file', input: { path: 'a.txt' } }],
            stopReason: 'tool_use',
          }
        : {
            role: 'assistant',
            content: [{ type: 'text', text: `done: ${String(result.content)}` }],
            stopReason: 'end_turn',
          };
    yield { type: 'done', message };
  },
};

/** A "process": its own manager over the shared store, with no approver, so `ask` pauses the run. */
function processOver(store: SessionStore, writes: string[], hang = false): SessionManager {
  return new SessionManager({
    store,
    agentOptions: () => ({
      provider,
      model: 'm',
      tools: [writeFileTool(writes, hang)],
      policy: policies.standard,
      orchestrator: stepOrchestrator,
    }),
  });
}

/** A session stored paused on one pending write, in a process that is then gone. */
async function pausedSession(store: MemorySessionStore, writes: string[]): Promise<string> {
  const session = await processOver(store, writes).create();
  const paused = await session.prompt('write a file').result();
  expect(paused.terminateReason).toBe('await_user');
  return session.id;
}

function allowAll(session: Session) {
  return session.agent.pendingApprovals.map((approval) => ({
    toolCallId: approval.toolCallId,
    inputHash: approval.inputHash,
    decision: 'allow' as const,
  }));
}

async function toolStarts(store: SessionStore, id: string): Promise<string[]> {
  return (await store.read(id))
    .map((record) => record.event)
    .filter((event) => event.type === 'tool_started')
    .map((event) => (event as { toolCallId: string }).toolCallId);
}

async function runIdsInLog(store: SessionStore, id: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const { event } of await store.read(id))
    if (event.type === 'run_started' || event.type === 'run_ended') ids.add(event.runId);
  return ids;
}

describe('two processes deciding the same pause', () => {
  it('deciding at once gives one execution: one run completes, the other is refused and writes nothing', async () => {
    const store = new MemorySessionStore();
    const writes: string[] = [];
    const id = await pausedSession(store, writes);
    const one = await processOver(store, writes).get(id);
    const two = await processOver(store, writes).get(id);
    const results = await Promise.all([
      one.resume({ decisions: allowAll(one) }).result(),
      two.resume({ decisions: allowAll(two) }).result(),
    ]);

    expect(writes).toEqual(['a.txt']);
    const winner = results.find((result) => result.terminateReason === 'completed');
    const loser = results.find((result) => result.terminateReason === 'error');
    expect(winner?.text).toBe('done: wrote a.txt');
    expect(loser?.error).toBeInstanceOf(ApprovalError);
    expect(loser?.error?.code).toBe('approval_claimed');
    expect(loser?.error?.message).toMatch(/Another process already decided .*nothing ran here/);
    expect(loser?.error?.cause).toMatchObject({ code: 'session_conflict' });
    // In the losing process the call is answered as not run (its history stays valid); the store never sees that.
    expect(loser?.toolCalls.map((call) => [call.id, call.isError, call.result])).toEqual([
      ['w1', true, 'Tool call not run: the run ended with an error first.'],
    ]);
    expect(loser?.turns).toBe(0);

    expect(await toolStarts(store, id)).toEqual(['w1']);
    const logged = await runIdsInLog(store, id);
    expect(logged.has((winner as AgentResult).runId)).toBe(true);
    expect(logged.has((loser as AgentResult).runId)).toBe(false);

    // The claimed snapshot said `running`; the winner's end replaced it, so a listing shows the session idle.
    expect((await store.list()).sessions.map((summary) => summary.status)).toEqual(['idle']);
    const reloaded = await processOver(store, writes).get(id);
    expect(reloaded.status).toBe('idle');
    expect(historyProblems(reloaded.messages)).toEqual([]);
    expect(reloaded.messages).toEqual(winner?.messages);
    expect(reloaded.agent.pendingApprovals).toEqual([]);
  });

  it('a process that loaded before the winner ran is refused afterwards; one that loads after is told the calls were decided', async () => {
    const store = new MemorySessionStore();
    const writes: string[] = [];
    const id = await pausedSession(store, writes);
    const stale = await processOver(store, writes).get(id);
    const winner = await processOver(store, writes).get(id);
    const decisions = allowAll(winner);
    expect((await winner.resume({ decisions }).result()).terminateReason).toBe('completed');

    const refused = await stale.resume({ decisions: allowAll(stale) }).result();
    expect(refused.terminateReason).toBe('error');
    expect(refused.error?.code).toBe('approval_claimed');
    // The stale process writes nothing more to the session, even for a new prompt.
    const later = await stale.prompt('and now?').result();
    expect(later.terminateReason).toBe('error');
    expect(later.error?.code).toBe('approval_claimed');

    const fresh = await processOver(store, writes).get(id);
    expect(() => fresh.resume({ decisions })).toThrow(
      expect.objectContaining({
        code: 'approval_already_decided',
        decided: [expect.objectContaining({ toolCallId: 'w1', isError: false })],
      }),
    );
    expect(writes).toEqual(['a.txt']);
    expect(await toolStarts(store, id)).toEqual(['w1']);
    const reloaded = await processOver(store, writes).get(id);
    expect(historyProblems(reloaded.messages)).toEqual([]);
    expect(reloaded.messages.filter((message) => message.role === 'user')).toHaveLength(1);
  });

  it('a process that stops right after its claim leaves the session waiting for its user (await_user, so inboxes list it); deciding again runs the call once', async () => {
    const store = new MemorySessionStore();
    const writes: string[] = [];
    const id = await pausedSession(store, writes);
    // This process claims, then stops before its first log record is written.
    const frozen: SessionStore = {
      load: (sessionId) => store.load(sessionId),
      save: (state, options) => store.save(state, options),
      list: (options) => store.list(options),
      delete: (sessionId) => store.delete(sessionId),
      read: (sessionId, options) => store.read(sessionId, options),
      append: () => new Promise(() => {}),
    };
    const doomed = await processOver(frozen, writes).get(id);
    void doomed.resume({ decisions: allowAll(doomed) });
    await waitFor(async () => (await store.load(id)).status === 'running');
    expect(writes).toEqual([]);

    const next = await processOver(store, writes).get(id);
    expect(next.status).toBe('await_user');
    expect(
      (await store.list()).sessions.map((summary) => [summary.status, summary.pendingApprovalCount]),
    ).toEqual([['await_user', 1]]);
    expect(next.agent.pendingApprovals.map((approval) => approval.toolCallId)).toEqual(['w1']);
    const done = await next.resume({ decisions: allowAll(next) }).result();
    expect(done.terminateReason).toBe('completed');
    expect(writes).toEqual(['a.txt']);
    expect(historyProblems(done.messages)).toEqual([]);
  });

  it('a process that stops while the approved call runs: the call is answered as unknown, and deciding it again runs nothing and says so', async () => {
    const store = new MemorySessionStore();
    const writes: string[] = [];
    const id = await pausedSession(store, writes);
    const doomed = await processOver(store, writes, true).get(id);
    const decisions = allowAll(doomed);
    void doomed.resume({ decisions });
    await waitFor(async () => writes.length === 1);

    const next = await processOver(store, writes).get(id);
    expect(next.status).toBe('interrupted');
    const answer = next.messages.at(-1) as { role: string; isError: boolean; content: string };
    expect(answer).toMatchObject({ role: 'toolResult', toolCallId: 'w1', isError: true });
    expect(answer.content).toContain('outcome is unknown');
    expect(() => next.resume({ decisions })).toThrow(
      expect.objectContaining({
        code: 'approval_already_decided',
        message: expect.stringMatching(/already has an error result: .*outcome is unknown/),
      }),
    );
    // Going on without a decision continues from the interrupted call's answer.
    const done = await next.resume().result();
    expect(done.terminateReason).toBe('completed');
    expect(done.toolCalls).toEqual([]);
    expect(writes).toEqual(['a.txt']);
    expect(await toolStarts(store, id)).toEqual(['w1']);
    expect(historyProblems(done.messages)).toEqual([]);
  });
});

describe('a journal without claim', () => {
  it('resumes with decisions as before', async () => {
    const written: string[] = [];
    const journal: RunJournal = {
      runStarted: (runId) => written.push(`run ${runId.length > 0}`),
      message: (message: AgentMessage) => written.push(`message ${(message as { role: string }).role}`),
      toolStarted: async (call: ToolCallBlock) => void written.push(`started ${call.id}`),
      toolFinished: async (call: ToolCallBlock) => void written.push(`finished ${call.id}`),
      flush: async () => {},
      runEnded: async (result) => void written.push(`ended ${result.terminateReason}`),
    };
    const writes: string[] = [];
    const agent = stepAgent({ provider, tools: [writeFileTool(writes)], policy: policies.standard, journal });
    expect((await agent.prompt('write a file').result()).terminateReason).toBe('await_user');
    const [pending] = agent.pendingApprovals;
    if (pending === undefined) throw new Error('one approval expected');
    written.length = 0;
    const done = await agent
      .resume({ decisions: [{ toolCallId: 'w1', inputHash: pending.inputHash, decision: 'allow' }] })
      .result();
    expect(done.terminateReason).toBe('completed');
    expect(writes).toEqual(['a.txt']);
    expect(written).toEqual([
      'run true',
      'started w1',
      'message toolResult',
      'finished w1',
      'message assistant',
      'ended completed',
    ]);
  });
});

/** Polls until `condition` holds: the stopped process leaves no event to await. */
async function waitFor(condition: () => Promise<boolean> | boolean): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error('the condition never held');
}
