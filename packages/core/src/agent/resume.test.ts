import { describe, expect, it } from 'vitest';
import {
  Agent,
  ApprovalError,
  type ApprovalDecision,
  type AgentOptions,
  historyProblems,
  type ModelRequest,
  type PendingApproval,
  policies,
  type ToolResultMessage,
} from '../index.js';
import { countedTools } from '../governance/test-support/governed-tools.js';
import { callsDone, inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { stepAgent } from '../test-support/step-agent.js';

function decide(
  approval: PendingApproval | undefined,
  decision: 'allow' | 'deny',
  reason?: string,
): ApprovalDecision {
  if (approval === undefined) throw new Error('no pending approval');
  return decision === 'deny'
    ? { toolCallId: approval.toolCallId, inputHash: approval.inputHash, decision, reason }
    : { toolCallId: approval.toolCallId, inputHash: approval.inputHash, decision };
}

/** What the model saw on each call, as JSON, to compare a paused run with one never paused. */
function sent(requests: ModelRequest[]): unknown {
  return JSON.parse(JSON.stringify(requests));
}

const twoWrites = () => [
  [toolDone('write_file', { path: 'a', content: '1' }, 'w1')],
  [toolDone('write_file', { path: 'b', content: '2' }, 'w2')],
  [textDone('both written')],
];

describe('agent.resume()', () => {
  it('two approvals in one run, each paused and resumed: each tool runs once, each output is sent once, the model sees what it would have seen unpaused', async () => {
    const { runs, tools } = countedTools();
    const base = { model: 'm', tools, policy: policies.standard, orchestrator: stepOrchestrator };

    const straightProvider = inlineProvider(twoWrites());
    const straight = new Agent({ ...base, provider: straightProvider, approve: () => 'allow' });
    expect((await straight.prompt('write two files').result()).terminateReason).toBe('completed');
    expect(runs.write_file).toBe(2);

    const pausedProvider = inlineProvider(twoWrites());
    const agent = new Agent({ ...base, provider: pausedProvider });
    const first = await agent.prompt('write two files').result();
    expect(first.terminateReason).toBe('await_user');
    expect(first.pendingApprovals?.map((approval) => approval.toolCallId)).toEqual(['w1']);

    const second = await agent.resume({ decisions: [decide(first.pendingApprovals?.[0], 'allow')] }).result();
    expect(second.terminateReason).toBe('await_user');
    expect(second.pendingApprovals?.map((approval) => approval.toolCallId)).toEqual(['w2']);
    expect(runs.write_file).toBe(3);

    const third = await agent.resume({ decisions: [decide(second.pendingApprovals?.[0], 'allow')] }).result();
    expect(third.terminateReason).toBe('completed');
    expect(third.text).toBe('both written');
    expect(runs.write_file).toBe(4);
    expect(agent.pendingApprovals).toEqual([]);

    expect(sent(pausedProvider.requests)).toEqual(sent(straightProvider.requests));
    const results = third.messages.filter((message) => message.role === 'toolResult') as ToolResultMessage[];
    expect(results.map((result) => result.content)).toEqual(['wrote a', 'wrote b']);
    expect(historyProblems(third.messages)).toEqual([]);
  });

  it('resumes from plain JSON in a new Agent: one approved, one denied, both listed at once', async () => {
    const { runs, tools } = countedTools();
    const script = () => [
      [
        callsDone([
          { id: 'w1', name: 'write_file', input: { path: 'a', content: '1' } },
          { id: 'r1', name: 'read_file', input: { path: 'c' } },
          { id: 'w2', name: 'write_file', input: { path: 'b', content: '2' } },
        ]),
      ],
      [textDone('done')],
    ];
    const base = { model: 'm', tools, policy: policies.standard, orchestrator: stepOrchestrator };
    const straightProvider = inlineProvider(script());
    const straight = new Agent({
      ...base,
      provider: straightProvider,
      approve: (request) =>
        request.toolCallId === 'w1' ? 'allow' : { decision: 'deny', reason: 'keep b as it is' },
    });
    await straight.prompt('go').result();
    const afterStraight = { ...runs };

    const first = new Agent({ ...base, provider: inlineProvider(script()) });
    const paused = await first.prompt('go').result();
    expect(paused.pendingApprovals?.map((approval) => approval.toolCallId)).toEqual(['w1', 'w2']);
    const stored = JSON.parse(
      JSON.stringify({ messages: first.messages, pendingApprovals: first.pendingApprovals }),
    );

    const secondProvider = inlineProvider(script().slice(1));
    const second = new Agent({ ...base, provider: secondProvider, ...stored });
    expect(second.pendingApprovals).toEqual(paused.pendingApprovals);
    const [w1, w2] = second.pendingApprovals;
    const result = await second
      .resume({ decisions: [decide(w1, 'allow'), decide(w2, 'deny', 'keep b as it is')] })
      .result();
    expect(result.terminateReason).toBe('completed');
    expect(runs.write_file - afterStraight.write_file).toBe(1);
    expect(runs.read_file - afterStraight.read_file).toBe(1);
    expect(sent(secondProvider.requests)).toEqual(sent(straightProvider.requests.slice(1)));
    expect(historyProblems(result.messages)).toEqual([]);
  });

  it('refuses a decision for other input or an unknown call with ApprovalError, and deciding twice is a no-op', async () => {
    const { runs, tools } = countedTools();
    const agent = stepAgent({
      provider: inlineProvider([
        [toolDone('write_file', { path: 'a', content: '1' }, 'w1')],
        [textDone('ok')],
      ]),
      tools,
      policy: policies.standard,
    });
    const paused = await agent.prompt('go').result();
    const approval = paused.pendingApprovals?.[0] as PendingApproval;
    const forged = { toolCallId: 'w1', inputHash: 'sha256:0000', decision: 'allow' } as const;
    expect(() => agent.resume({ decisions: [forged] })).toThrow(ApprovalError);
    expect(() => agent.resume({ decisions: [forged] })).toThrow(/made for other input/);
    expect(() => agent.resume({ decisions: [{ ...decide(approval, 'allow'), toolCallId: 'nope' }] })).toThrow(
      expect.objectContaining({ code: 'approval_unknown_call' }),
    );
    expect(() =>
      agent.resume({ decisions: [{ ...decide(approval, 'allow'), decision: 'maybe' } as never] }),
    ).toThrow(expect.objectContaining({ code: 'approval_invalid' }));
    expect(runs.write_file).toBe(0);

    const decision = decide(approval, 'allow');
    await agent.resume({ decisions: [decision, decision] }).result();
    expect(runs.write_file).toBe(1);
    // The same decision again, as a stale copy of the pause would send it: nothing runs twice, and the caller is told.
    let refused: unknown;
    try {
      agent.resume({ decisions: [decision] });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApprovalError);
    expect(refused).toMatchObject({
      code: 'approval_already_decided',
      toolCallId: 'w1',
      decided: [{ toolCallId: 'w1', toolName: 'write_file', isError: false, result: expect.any(String) }],
    });
    expect((refused as Error).message).toMatch(/'w1' \(write_file\) already has its result/);
    expect(runs.write_file).toBe(1);
    expect(agent.isRunning).toBe(false);
  });

  it('decisions that are not an array get a ConfigError naming the option', async () => {
    const agent = stepAgent({ provider: inlineProvider([]) });
    expect(() => agent.resume({ decisions: { w1: 'allow' } as never })).toThrow(
      expect.objectContaining({
        code: 'invalid_config',
        message: expect.stringMatching(/takes an array of decisions, got object/),
      }),
    );
  });

  it('an abort while the approver is asked records a denied result and leaves a valid history', async () => {
    const { runs, tools } = countedTools();
    let asked!: () => void;
    const askedPromise = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const agent = stepAgent({
      provider: inlineProvider([[toolDone('write_file', { path: 'a', content: '1' }, 'w1')]]),
      tools,
      policy: policies.standard,
      approve: () => {
        asked();
        return new Promise(() => {});
      },
    });
    const run = agent.prompt('go');
    await askedPromise;
    agent.abort();
    const result = await run.result();
    expect(result.terminateReason).toBe('aborted');
    expect(runs.write_file).toBe(0);
    const [denied] = result.messages.filter(
      (message) => message.role === 'toolResult',
    ) as ToolResultMessage[];
    expect(denied?.content).toBe(
      "Tool call 'write_file' was denied: the run was aborted while it waited for approval.",
    );
    expect(historyProblems(result.messages)).toEqual([]);
  });

  it('an abort of the resumed run before the approved call runs answers it as not run, and the history stays valid', async () => {
    const { runs, tools } = countedTools();
    const agent = stepAgent({
      provider: inlineProvider([[toolDone('write_file', { path: 'a', content: '1' }, 'w1')]]),
      tools,
      policy: policies.standard,
    });
    const paused = await agent.prompt('go').result();
    const signal = AbortSignal.abort();
    const result = await agent
      .resume({ decisions: [decide(paused.pendingApprovals?.[0], 'allow')], signal })
      .result();
    expect(result.terminateReason).toBe('aborted');
    expect(runs.write_file).toBe(0);
    expect(historyProblems(result.messages)).toEqual([]);
    expect(agent.pendingApprovals).toEqual([]);
  });

  it('a new prompt instead of a resume answers the waiting calls as skipped', async () => {
    const { runs, tools } = countedTools();
    const agent = new Agent({
      provider: inlineProvider([
        [toolDone('write_file', { path: 'a', content: '1' }, 'w1')],
        [textDone('ok')],
      ]),
      model: 'm',
      tools,
      policy: policies.standard,
      orchestrator: stepOrchestrator,
    } satisfies AgentOptions);
    await agent.prompt('go').result();
    const result = await agent.prompt('never mind').result();
    expect(runs.write_file).toBe(0);
    expect(agent.pendingApprovals).toEqual([]);
    expect(historyProblems(result.messages)).toEqual([]);
  });
});
