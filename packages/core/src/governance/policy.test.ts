import { describe, expect, it } from 'vitest';
import {
  Agent,
  type AgentEvent,
  type ApprovalAnswer,
  definePolicy,
  historyProblems,
  policies,
} from '../index.js';
import { callsDone, inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { countedTools, resultsOf } from './test-support/governed-tools.js';
import { stepAgent } from '../test-support/step-agent.js';

describe('policy decision paths', () => {
  it('allow: a read tool runs under the standard profile, with a policy event', async () => {
    const { runs, tools } = countedTools();
    const agent = stepAgent({
      provider: inlineProvider([[toolDone('read_file', { path: 'a' })], [textDone('done')]]),
      tools,
      policy: policies.standard,
    });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const result = await agent.prompt('read a').result();
    expect(result.terminateReason).toBe('completed');
    expect(runs.read_file).toBe(1);
    const policy = events.find((event) => event.type === 'policy');
    expect(policy).toMatchObject({ decision: 'allow', risk: 'read', policy: 'standard' });
  });

  it('deny: strict hides execute and network tools, and a call to one anyway is an error result saying why', async () => {
    const { runs, tools } = countedTools();
    const provider = inlineProvider([[toolDone('run_command', { command: 'ls' })], [textDone('ok')]]);
    const agent = stepAgent({ provider, tools, policy: policies.strict });
    const result = await agent.prompt('list').result();
    expect(provider.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['read_file', 'write_file']);
    expect(runs.run_command).toBe(0);
    const [denied] = resultsOf(result.messages);
    expect(denied?.isError).toBe(true);
    expect(denied?.content).toMatch(
      /Tool call 'run_command' was denied: policy 'strict' says 'deny' for risk 'execute'. Do not call it again/,
    );
    expect(result.terminateReason).toBe('completed');
    expect(historyProblems(result.messages)).toEqual([]);
  });

  it.each<[string, ApprovalAnswer, number, RegExp | undefined]>([
    ['allow once', 'allow', 1, undefined],
    ['allow always', 'allow_always', 1, undefined],
    [
      'deny with a reason',
      { decision: 'deny', reason: 'not that file' },
      0,
      /denied by the user: not that file/,
    ],
  ])('ask answered %s', async (_name, answer, expectedRuns, errorText) => {
    const { runs, tools } = countedTools();
    const asked: string[] = [];
    const agent = stepAgent({
      provider: inlineProvider([[toolDone('write_file', { path: 'a', content: 'x' })], [textDone('done')]]),
      tools,
      policy: policies.standard,
      approve: (request) => {
        asked.push(`${request.toolName}:${request.risk}:${request.inputHash.slice(0, 7)}`);
        return answer;
      },
    });
    const result = await agent.prompt('write').result();
    expect(asked).toEqual(['write_file:write:sha256:']);
    expect(runs.write_file).toBe(expectedRuns);
    const [toolResult] = resultsOf(result.messages);
    if (errorText === undefined) expect(toolResult?.isError).toBe(false);
    else expect(toolResult?.content).toMatch(errorText);
    expect(result.terminateReason).toBe('completed');
    expect(agent.alwaysAllowedTools).toEqual(answer === 'allow_always' ? ['write_file'] : []);
  });

  it('allow always is remembered for the session: the next call of the tool is not asked about, even in a new Agent', async () => {
    const { runs, tools } = countedTools();
    let asked = 0;
    const provider = inlineProvider([
      [toolDone('write_file', { path: 'a', content: 'x' }, 'c1')],
      [textDone('one')],
      [toolDone('write_file', { path: 'b', content: 'y' }, 'c2')],
      [textDone('two')],
      [toolDone('write_file', { path: 'c', content: 'z' }, 'c3')],
      [textDone('three')],
    ]);
    const options = {
      provider,
      model: 'm',
      tools,
      policy: policies.standard,
      approve: () => {
        asked++;
        return 'allow_always' as const;
      },
      orchestrator: stepOrchestrator,
    };
    const agent = new Agent(options);
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    await agent.prompt('first').result();
    await agent.prompt('second').result();
    expect(asked).toBe(1);
    expect(events.filter((event) => event.type === 'approval').map((event) => event.source)).toEqual([
      'approver',
      'remembered',
    ]);
    const stored = JSON.parse(JSON.stringify({ messages: agent.messages, always: agent.alwaysAllowedTools }));
    const restored = new Agent({ ...options, messages: stored.messages, alwaysAllowedTools: stored.always });
    await restored.prompt('third').result();
    expect(asked).toBe(1);
    expect(runs.write_file).toBe(3);
  });

  it('later: the run stops with await_user, the call unanswered and listed in pendingApprovals', async () => {
    const { runs, tools } = countedTools();
    const agent = stepAgent({
      provider: inlineProvider([[toolDone('write_file', { path: 'a', content: 'x' }, 'w1')]]),
      tools,
      policy: policies.standard,
      approve: () => 'later',
    });
    const result = await agent.prompt('write').result();
    expect(result.terminateReason).toBe('await_user');
    expect(runs.write_file).toBe(0);
    expect(result.pendingApprovals).toEqual([
      {
        toolCallId: 'w1',
        toolName: 'write_file',
        input: { path: 'a', content: 'x' },
        inputHash: expect.stringMatching(/^sha256:/),
        risk: 'write',
        reason: "policy 'standard' says 'ask' for risk 'write'",
        agentPath: [],
        requestedAt: expect.any(String),
      },
    ]);
    expect(agent.pendingApprovals).toEqual(result.pendingApprovals);
    expect(result.messages.at(-1)?.role).toBe('assistant');
  });

  it('no approver: an ask pauses the run, and a tool without a risk counts as execute', async () => {
    const { runs, tools } = countedTools();
    const agent = stepAgent({
      provider: inlineProvider([[toolDone('fetch_url', { url: 'https://example.com' })]]),
      tools,
      policy: policies.standard,
    });
    const result = await agent.prompt('fetch').result();
    expect(result.terminateReason).toBe('await_user');
    expect(result.pendingApprovals?.[0]).toMatchObject({ toolName: 'fetch_url', risk: 'execute' });
    expect(runs.fetch_url).toBe(0);
  });

  it('custom policies: rules by tool name win over risk, and a function sees the call and the run', async () => {
    const { runs, tools } = countedTools();
    const rules = definePolicy({ name: 'mine', risk: { read: 'deny' }, tools: { read_file: 'allow' } });
    const seen: string[] = [];
    const agent = stepAgent({
      provider: inlineProvider([
        [
          callsDone([
            { id: 'a', name: 'read_file', input: { path: 'x' } },
            { id: 'b', name: 'write_file', input: { path: 'secret.env', content: '' } },
            { id: 'c', name: 'write_file', input: { path: 'notes.md', content: '' } },
          ]),
        ],
        [textDone('done')],
      ]),
      tools,
      policy: (call, tool, run) => {
        seen.push(`${tool.name}:${run.risk}:${run.turn}`);
        if (tool.name === 'read_file') return rules.decide(call, tool, run);
        return String(call.input.path).endsWith('.env')
          ? { decision: 'deny', reason: 'secrets stay put' }
          : 'allow';
      },
    });
    const result = await agent.prompt('go').result();
    expect(seen).toEqual(['read_file:read:1', 'write_file:write:1', 'write_file:write:1']);
    expect(runs).toMatchObject({ read_file: 1, write_file: 1 });
    expect(resultsOf(result.messages)[1]?.content).toMatch(/was denied: secrets stay put/);
  });

  it('a policy sees the history so far: a write is allowed only after the same file was read', async () => {
    const { runs, tools } = countedTools();
    const agent = stepAgent({
      provider: inlineProvider([
        [toolDone('write_file', { path: 'notes.md', content: 'x' }, 'first_write')],
        [toolDone('read_file', { path: 'notes.md' })],
        [toolDone('write_file', { path: 'notes.md', content: 'y' }, 'second_write')],
        [textDone('done')],
      ]),
      tools,
      policy: (call, _tool, run) => {
        if (call.name !== 'write_file') return 'allow';
        const readBefore = (run.messages ?? []).some(
          (message) =>
            message.role === 'assistant' &&
            message.content.some((block) => block.type === 'toolCall' && block.name === 'read_file'),
        );
        return readBefore ? 'allow' : { decision: 'deny', reason: 'read the file first' };
      },
    });
    const result = await agent.prompt('edit notes').result();
    expect(runs).toMatchObject({ read_file: 1, write_file: 1 });
    const [first, , third] = resultsOf(result.messages);
    expect(first?.content).toMatch(/was denied: read the file first/);
    expect(third?.isError).toBe(false);
  });

  it('a policy that throws denies the call (fail closed)', async () => {
    const { runs, tools } = countedTools();
    const agent = stepAgent({
      provider: inlineProvider([[toolDone('read_file', { path: 'x' })], [textDone('done')]]),
      tools,
      policy: () => {
        throw new Error('rules file missing');
      },
    });
    const result = await agent.prompt('go').result();
    expect(runs.read_file).toBe(0);
    expect(resultsOf(result.messages)[0]?.content).toMatch(/failed \(rules file missing\)/);
  });

  it('an approver that throws, rejects or gives no valid answer denies the call (fail closed)', async () => {
    const approvers: Record<string, () => ApprovalAnswer | Promise<ApprovalAnswer>> = {
      throws: () => {
        throw new Error('prompt closed');
      },
      rejects: () => Promise.reject(new Error('socket gone')),
      'answers nonsense': () => 'maybe' as ApprovalAnswer,
      'has a then that throws': () =>
        ({
          // biome-ignore lint/suspicious/noThenProperty: a thenable whose then throws is the case checked
          get then() {
            throw new Error('broken thenable');
          },
        }) as unknown as ApprovalAnswer,
    };
    const texts: Record<string, string | undefined> = {};
    for (const [name, approve] of Object.entries(approvers)) {
      const { runs, tools } = countedTools();
      const agent = stepAgent({
        provider: inlineProvider([[toolDone('write_file', { path: 'a', content: 'x' })], [textDone('done')]]),
        tools,
        policy: policies.standard,
        approve,
      });
      const result = await agent.prompt('go').result();
      expect(result.terminateReason, name).toBe('completed');
      expect(runs.write_file, name).toBe(0);
      texts[name] = resultsOf(result.messages)[0]?.content as string | undefined;
    }
    expect(texts).toEqual({
      throws: "Tool call 'write_file' was denied by the user: the approver failed (prompt closed).",
      rejects: "Tool call 'write_file' was denied by the user: the approver failed (socket gone).",
      'answers nonsense': "Tool call 'write_file' was denied by the user: the approver gave no valid answer.",
      'has a then that throws':
        "Tool call 'write_file' was denied by the user: the approver failed (broken thenable).",
    });
  });

  it('an approver that aborts the run and then allows the call at once leaves it denied as aborted, not run', async () => {
    const { runs, tools } = countedTools();
    const agent: Agent = stepAgent({
      provider: inlineProvider([[toolDone('write_file', { path: 'a', content: 'x' })], [textDone('done')]]),
      tools,
      policy: policies.standard,
      approve: () => {
        agent.abort();
        return 'allow';
      },
    });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('aborted');
    expect(runs.write_file).toBe(0);
    expect(resultsOf(result.messages)[0]?.content).toBe(
      "Tool call 'write_file' was denied: the run was aborted while it waited for approval.",
    );
    expect(events.filter((event) => event.type === 'approval')).toMatchObject([
      { decision: 'deny', reason: 'aborted', source: 'abort' },
    ]);
    expect(historyProblems(result.messages)).toEqual([]);
  });
});
