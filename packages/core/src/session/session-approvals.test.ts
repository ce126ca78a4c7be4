import { describe, expect, it } from 'vitest';
import { historyProblems } from '../messages/history-problems.js';
import type { AssistantMessage, ModelRequest, Provider } from '../index.js';
import { ApprovalError, policies } from '../index.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { MemorySessionStore } from './memory-session-store.js';
import { SessionManager } from './session-manager.js';
import { writeFileTool } from '../test-support/write-file-tool.js';

/** Asks for two writes, then answers with how many results it saw: each reply depends only on the request. */
const provider: Provider = {
  name: 'scripted',
  async *stream(request: ModelRequest) {
    const results = request.messages.filter((message) => message.role === 'toolResult');
    const message: AssistantMessage =
      results.length === 0
        ? {
            role: 'assistant',
            content: [
              { type: 'toolCall', id: 'w1', name: 'write_file', input: { path: 'a.txt' } },
              { type: 'toolCall', id: 'w2', name: 'write_file', input: { path: 'b.txt' } },
            ],
            stopReason: 'tool_use',
          }
        : {
            role: 'assistant',
            content: [{ type: 'text', text: `done: ${results.map((result) => result.content).join(' | ')}` }],
            stopReason: 'end_turn',
          };
    yield { type: 'done', message };
  },
};

function setup(store: MemorySessionStore, writes: string[]) {
  const write = writeFileTool(writes);
  // No approver: a call the policy asks about pauses the run.
  return new SessionManager({
    store,
    agentOptions: () => ({
      provider,
      model: 'm',
      tools: [write],
      policy: policies.standard,
      orchestrator: stepOrchestrator,
    }),
  });
}

describe('approvals in a stored session', () => {
  it('a pause is stored; another manager decides it, each approved call runs once', async () => {
    const store = new MemorySessionStore();
    const writes: string[] = [];
    const first = setup(store, writes);
    const session = await first.create();
    const paused = await session.prompt('write two files').result();
    expect(paused.terminateReason).toBe('await_user');
    expect(paused.pendingApprovals?.map((approval) => approval.toolCallId)).toEqual(['w1', 'w2']);
    expect(writes).toEqual([]);

    // Another process: only the store is shared.
    const second = setup(store, writes);
    const reopened = await second.get(session.id);
    expect(reopened.status).toBe('await_user');
    const pending = reopened.agent.pendingApprovals;
    expect(pending.map((approval) => approval.toolCallId)).toEqual(['w1', 'w2']);
    const [one, two] = pending;
    if (one === undefined || two === undefined) throw new Error('two approvals expected');
    const decisions = [
      { toolCallId: one.toolCallId, inputHash: one.inputHash, decision: 'allow' as const },
      { toolCallId: two.toolCallId, inputHash: two.inputHash, decision: 'deny' as const, reason: 'not b' },
    ];
    const done = await reopened.resume({ decisions }).result();
    expect(done.terminateReason).toBe('completed');
    expect(writes).toEqual(['a.txt']);
    expect(done.text).toMatch(/^done: wrote a\.txt \| .*not b/);
    expect(historyProblems(done.messages)).toEqual([]);

    // A third process sees the decided session; deciding again runs nothing and says so.
    const third = await setup(store, writes).get(session.id);
    expect(third.status).toBe('idle');
    expect(third.agent.pendingApprovals).toEqual([]);
    expect(() => third.resume({ decisions })).toThrow(
      expect.objectContaining({ code: 'approval_already_decided' }),
    );
    expect(writes).toEqual(['a.txt']);
  });

  it('a forged decision is refused with a typed error and runs nothing', async () => {
    const store = new MemorySessionStore();
    const writes: string[] = [];
    const session = await setup(store, writes).create();
    await session.prompt('write two files').result();
    const reopened = await setup(store, writes).get(session.id);
    expect(() =>
      reopened.resume({ decisions: [{ toolCallId: 'w1', inputHash: 'sha256:forged', decision: 'allow' }] }),
    ).toThrow(ApprovalError);
    expect(writes).toEqual([]);
  });

  it('allow always is kept with the session', async () => {
    const store = new MemorySessionStore();
    const writes: string[] = [];
    const session = await setup(store, writes).create();
    await session.prompt('write two files').result();
    const reopened = await setup(store, writes).get(session.id);
    const [one, two] = reopened.agent.pendingApprovals;
    if (one === undefined || two === undefined) throw new Error('two approvals expected');
    await reopened
      .resume({
        decisions: [
          { toolCallId: one.toolCallId, inputHash: one.inputHash, decision: 'allow_always' },
          { toolCallId: two.toolCallId, inputHash: two.inputHash, decision: 'allow' },
        ],
      })
      .result();
    const later = await setup(store, writes).get(session.id);
    expect(later.agent.alwaysAllowedTools).toEqual(['write_file']);
    const next = await later.prompt('again').result();
    expect(next.terminateReason).toBe('completed');
  });
});
