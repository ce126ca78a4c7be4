import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  type AgentOptions,
  type AgentResult,
  type AnyTool,
  ApprovalError,
  type AssistantMessage,
  defineTool,
  historyProblems,
  type ModelRequest,
  type PendingApproval,
  policies,
  type Provider,
} from '../index.js';
import type { Approver } from '../governance/approval.js';
import { MemorySessionStore } from '../session/memory-session-store.js';
import { SessionManager } from '../session/session-manager.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { toolsOrchestrator } from '../test-support/tools-orchestrator.js';
import {
  type AgentDefinition,
  AgentExecutor,
  AgentRegistry,
  asTool,
  defineAgent,
  type ExecuteOptions,
} from './index.js';
import { writeFileTool } from '../test-support/write-file-tool.js';

/** A provider whose reply depends only on the request: it calls `call` until it sees a result, then answers with it. */
function scripted(
  prefix: string,
  calls: { id: string; name: string; input: Record<string, unknown> }[],
): Provider & { requests: ModelRequest[]; hang?: boolean } {
  const requests: ModelRequest[] = [];
  const provider: Provider & { requests: ModelRequest[]; hang?: boolean } = {
    name: `scripted-${prefix}`,
    requests,
    async *stream(request, options) {
      requests.push(structuredClone({ ...request, messages: request.messages.slice() }));
      if (provider.hang === true) {
        const signal = options?.signal;
        await new Promise<void>((resolve) => {
          if (signal?.aborted) resolve();
          signal?.addEventListener('abort', () => resolve(), { once: true });
        });
        yield { type: 'done', message: { role: 'assistant', content: [], stopReason: 'aborted' } };
        return;
      }
      const results = request.messages.filter((message) => message.role === 'toolResult');
      const message: AssistantMessage =
        results.length === 0
          ? {
              role: 'assistant',
              content: calls.map((call) => ({ type: 'toolCall' as const, ...call })),
              stopReason: 'tool_use',
            }
          : {
              role: 'assistant',
              content: [
                {
                  type: 'text',
                  text: `${prefix}: ${results.map((result) => String(result.content)).join(' | ')}`,
                },
              ],
              stopReason: 'end_turn',
            };
      yield { type: 'done', message };
    },
  };
  return provider;
}

/** Keeps the runs it executes, finished or not, so a test can look at a child that outlived its parent. */
class RecordingExecutor extends AgentExecutor {
  readonly runs: Promise<AgentResult<unknown>>[] = [];
  override execute<TOutput>(
    definition: AgentDefinition<TOutput>,
    options?: ExecuteOptions,
  ): Promise<AgentResult<TOutput>>;
  override execute(name: string, options?: ExecuteOptions): Promise<AgentResult<unknown>>;
  override execute(
    target: AgentDefinition<unknown> | string,
    options?: ExecuteOptions,
  ): Promise<AgentResult<unknown>> {
    const run = super.execute(target as string, options);
    this.runs.push(run);
    return run;
  }
}

/** Everything one process builds: providers, the counted write tool, the subagent definitions and the parent options. */
function world(
  options: {
    approve?: Approver;
    parallel?: boolean;
    twoChildren?: boolean;
    /** A plain `tally` call after the subagent's, in the same response. */
    sibling?: boolean;
    maxParallelTools?: number;
  } = {},
) {
  const writes: string[] = [];
  const tallies: number[] = [];
  const tally = defineTool({
    name: 'tally',
    description: 'counts',
    parameters: z.object({}),
    execute: () => {
      tallies.push(tallies.length + 1);
      return `tally ${tallies.length}`;
    },
  });
  const writeFile = writeFileTool(writes);
  const executor = new RecordingExecutor({ registry: new AgentRegistry(), orchestrator: stepOrchestrator });
  const childProviders: Record<string, ReturnType<typeof scripted>> = {};
  const subagent = (name: string, path: string, callId: string) => {
    const provider = scripted(`${name} done`, [{ id: callId, name: 'write_file', input: { path } }]);
    childProviders[name] = provider;
    return asTool(
      defineAgent({
        name,
        description: `The ${name}`,
        promptConfig: { systemPrompt: `You are the ${name}. Topic: \${topic}` },
        modelConfig: { provider, model: 'm' },
        inputConfig: { inputs: { topic: { type: 'string' } } },
        toolConfig: { tools: [writeFile] },
        governanceConfig: {
          policy: policies.standard,
          ...(options.approve === undefined ? {} : { approve: options.approve }),
        },
      }),
      { executor },
    );
  };
  const tools: AnyTool[] = [subagent('researcher', 'notes.txt', 'w1')];
  const parentCalls: { id: string; name: string; input: Record<string, unknown> }[] = [
    { id: 'p1', name: 'researcher', input: { topic: 'tides' } },
  ];
  if (options.twoChildren === true) {
    tools.push(subagent('archivist', 'archive.txt', 'w2'));
    parentCalls.push({ id: 'p2', name: 'archivist', input: { topic: 'tides' } });
  }
  if (options.sibling === true) {
    tools.push(tally);
    parentCalls.push({ id: 'p9', name: 'tally', input: {} });
  }
  const parentProvider = scripted('parent done', parentCalls);
  const agentOptions: AgentOptions = {
    provider: parentProvider,
    model: 'm',
    tools,
    orchestrator: options.parallel === true ? toolsOrchestrator : stepOrchestrator,
    ...(options.parallel === true ? { toolExecution: 'parallel' as const } : {}),
    ...(options.maxParallelTools === undefined ? {} : { maxParallelTools: options.maxParallelTools }),
  };
  return { writes, tallies, childProviders, parentProvider, agentOptions, executor };
}

function decide(approval: PendingApproval, decision: 'allow' | 'deny', reason?: string) {
  return decision === 'allow'
    ? { toolCallId: approval.toolCallId, inputHash: approval.inputHash, decision }
    : { toolCallId: approval.toolCallId, inputHash: approval.inputHash, decision, reason };
}

/** The messages of each request, as JSON: what a provider was sent. */
function sent(requests: readonly ModelRequest[]): unknown[] {
  return requests.map((request) => JSON.parse(JSON.stringify(request.messages)));
}

async function pausedRun(options: Parameters<typeof world>[0] = {}) {
  const first = world(options);
  const events: AgentEvent[] = [];
  const parent = new Agent(first.agentOptions);
  parent.subscribe((event) => events.push(event));
  const result = await parent.prompt('research tides').result();
  // What a store would hold: plain JSON only.
  const stored = JSON.parse(JSON.stringify({ messages: parent.messages, pending: parent.pendingApprovals }));
  return { first, parent, events, result, stored };
}

describe('an approval a subagent needs pauses and resumes the root run', () => {
  it('pauses the root run with the child approval, naming the inner agent', async () => {
    const { first, events, result, parent } = await pausedRun();
    expect(result.terminateReason).toBe('await_user');
    expect(first.writes).toEqual([]);
    const [approval] = result.pendingApprovals ?? [];
    expect(result.pendingApprovals).toHaveLength(1);
    expect(approval).toMatchObject({
      toolCallId: 'w1',
      toolName: 'write_file',
      input: { path: 'notes.txt' },
      risk: 'write',
      agentPath: ['researcher'],
      pausedCall: { toolCallId: 'p1', toolName: 'researcher' },
    });
    expect(parent.pendingApprovals).toEqual(result.pendingApprovals);
    // The parent's call to the subagent is left unanswered, like a call paused at the parent's own gate.
    expect(parent.messages.filter((message) => message.role === 'toolResult')).toEqual([]);
    expect(result.toolCalls).toEqual([]);
    // The stream shows the request twice: from inside the child (wrapped) and at the root, with the path.
    const nested = events.filter(
      (event) => event.type === 'subagent' && event.event.type === 'approval_request',
    );
    expect(nested).toHaveLength(1);
    const root = events.filter((event) => event.type === 'approval_request');
    expect(root.map((event) => event.type === 'approval_request' && event.approval.agentPath)).toEqual([
      ['researcher'],
    ]);
  });

  it('approved in a new process: the child continues, its tool runs once, and sends what an uninterrupted run sends', async () => {
    const { first, stored } = await pausedRun();
    // A new process: new providers, tools, executor and agents; only the stored JSON carries over.
    const second = world();
    const parent = new Agent({
      ...second.agentOptions,
      messages: stored.messages,
      pendingApprovals: stored.pending,
    });
    const [approval] = parent.pendingApprovals;
    if (approval === undefined) throw new Error('a pending approval expected');
    const events: AgentEvent[] = [];
    parent.subscribe((event) => events.push(event));
    const result = await parent.resume({ decisions: [decide(approval, 'allow')] }).result();

    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('parent done: researcher done: wrote notes.txt');
    expect([...first.writes, ...second.writes]).toEqual(['notes.txt']);
    expect(parent.pendingApprovals).toEqual([]);
    expect(historyProblems(parent.messages)).toEqual([]);
    // The child resumed: its provider got only the request after the approved call, never the first one again.
    const researcher = second.childProviders.researcher;
    expect(researcher?.requests).toHaveLength(1);
    const decisionEvents = events.filter(
      (event) => event.type === 'subagent' && event.event.type === 'approval',
    );
    expect(decisionEvents).toHaveLength(1);

    const uninterrupted = world({ approve: () => 'allow' });
    const straight = await new Agent(uninterrupted.agentOptions).prompt('research tides').result();
    expect(straight.text).toBe(result.text);
    expect(
      sent([...(first.childProviders.researcher?.requests ?? []), ...(researcher?.requests ?? [])]),
    ).toEqual(sent(uninterrupted.childProviders.researcher?.requests ?? []));
    expect(sent([...first.parentProvider.requests, ...second.parentProvider.requests])).toEqual(
      sent(uninterrupted.parentProvider.requests),
    );
  });

  it('a denied child call gets its error result inside the child, and the parent goes on', async () => {
    const { first, parent, result: paused } = await pausedRun();
    const [approval] = paused.pendingApprovals ?? [];
    if (approval === undefined) throw new Error('a pending approval expected');
    const result = await parent.resume({ decisions: [decide(approval, 'deny', 'not now')] }).result();
    expect(result.terminateReason).toBe('completed');
    expect(first.writes).toEqual([]);
    expect(result.text).toBe(
      "parent done: researcher done: Tool call 'write_file' was denied by the user: not now.",
    );
    expect(historyProblems(parent.messages)).toEqual([]);
  });

  it('refuses forged decisions and decisions for other input before anything runs', async () => {
    const { first, parent, result: paused } = await pausedRun();
    const [approval] = paused.pendingApprovals ?? [];
    if (approval === undefined) throw new Error('a pending approval expected');
    const childRequests = first.childProviders.researcher?.requests.length;
    expect(() =>
      parent.resume({ decisions: [{ toolCallId: 'w9', inputHash: approval.inputHash, decision: 'allow' }] }),
    ).toThrow(ApprovalError);
    try {
      parent.resume({ decisions: [{ toolCallId: 'w1', inputHash: 'f'.repeat(64), decision: 'allow' }] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApprovalError);
      expect((error as ApprovalError).code).toBe('approval_input_mismatch');
    }
    // A decision naming an agent path that asked nothing is refused too.
    expect(() =>
      parent.resume({ decisions: [{ ...decide(approval, 'allow'), agentPath: ['archivist'] }] }),
    ).toThrow(/forged, stale/);
    expect(first.writes).toEqual([]);
    expect(first.childProviders.researcher?.requests.length).toBe(childRequests);
    expect(parent.pendingApprovals).toEqual(paused.pendingApprovals);
    // The pause is intact: a real decision still applies, and the same decision twice runs the call once.
    const result = await parent
      .resume({ decisions: [decide(approval, 'allow'), decide(approval, 'allow')] })
      .result();
    expect(result.terminateReason).toBe('completed');
    expect(first.writes).toEqual(['notes.txt']);
  });

  it('resuming without a decision never starts the child over: it pauses again at the same call', async () => {
    const { first, parent } = await pausedRun();
    const again = await parent.resume().result();
    expect(again.terminateReason).toBe('await_user');
    expect(again.pendingApprovals?.map((approval) => [approval.toolCallId, approval.agentPath])).toEqual([
      ['w1', ['researcher']],
    ]);
    // The child made no model call: it went straight back to its unanswered call.
    expect(first.childProviders.researcher?.requests).toHaveLength(1);
    expect(first.writes).toEqual([]);
  });

  it('a child whose approver answers handles it itself: no pause at the root', async () => {
    const { writes, agentOptions } = world({ approve: () => 'allow' });
    const result = await new Agent(agentOptions).prompt('research tides').result();
    expect(result.terminateReason).toBe('completed');
    expect(result.pendingApprovals).toBeUndefined();
    expect(writes).toEqual(['notes.txt']);
  });

  it('an approver that answers later pauses the root run like no approver', async () => {
    const { writes, agentOptions } = world({ approve: () => 'later' });
    const result = await new Agent(agentOptions).prompt('research tides').result();
    expect(result.terminateReason).toBe('await_user');
    expect(result.pendingApprovals?.[0]?.agentPath).toEqual(['researcher']);
    expect(writes).toEqual([]);
  });

  it('two subagents in parallel both pause; both decisions resume them, each write runs once', async () => {
    const { first, parent, result: paused } = await pausedRun({ parallel: true, twoChildren: true });
    expect(paused.terminateReason).toBe('await_user');
    expect(
      paused.pendingApprovals?.map((approval) => [
        approval.toolCallId,
        approval.agentPath,
        approval.pausedCall?.toolCallId,
      ]),
    ).toEqual([
      ['w1', ['researcher'], 'p1'],
      ['w2', ['archivist'], 'p2'],
    ]);
    const [one, two] = paused.pendingApprovals ?? [];
    if (one === undefined || two === undefined) throw new Error('two approvals expected');
    const result = await parent.resume({ decisions: [decide(one, 'allow'), decide(two, 'deny')] }).result();
    expect(result.terminateReason).toBe('completed');
    expect(first.writes).toEqual(['notes.txt']);
    expect(result.text).toBe(
      "parent done: researcher done: wrote notes.txt | archivist done: Tool call 'write_file' was denied by the user: no reason given.",
    );
    expect(historyProblems(parent.messages)).toEqual([]);
  });

  it('aborting the resumed run leaves the parent and the child histories valid', async () => {
    const { first, parent, result: paused } = await pausedRun();
    const [approval] = paused.pendingApprovals ?? [];
    if (approval === undefined) throw new Error('a pending approval expected');
    const researcher = first.childProviders.researcher;
    if (researcher === undefined) throw new Error('the researcher provider expected');
    researcher.hang = true;
    // The child's model call after the approved write hangs; the parent is aborted once the write ended.
    parent.subscribe((event) => {
      if (event.type === 'subagent' && event.event.type === 'tool_call_end')
        setTimeout(() => parent.abort(), 0);
    });
    const result = await parent.resume({ decisions: [decide(approval, 'allow')] }).result();
    expect(result.terminateReason).toBe('aborted');
    expect(first.writes).toEqual(['notes.txt']);
    expect(historyProblems(parent.messages)).toEqual([]);
    const child = await first.executor.runs.at(-1);
    expect(child?.terminateReason).toBe('aborted');
    expect(historyProblems(child?.messages ?? [])).toEqual([]);
    expect(child?.messages.filter((message) => message.role === 'toolResult')).toHaveLength(1);
  });
});

describe('a call that ends beside a paused subagent (parallel)', () => {
  it('keeps its result with the pause; the resume in another process appends it in call order and never runs it again', async () => {
    const { first, result: paused, parent, stored } = await pausedRun({ parallel: true, sibling: true });
    expect(paused.terminateReason).toBe('await_user');
    expect(first.tallies).toEqual([1]);
    // The history takes results in call order: the tally waits behind the paused subagent call.
    expect(parent.messages.filter((message) => message.role === 'toolResult')).toEqual([]);
    const [approval] = paused.pendingApprovals ?? [];
    if (approval === undefined) throw new Error('a pending approval expected');
    expect(approval.heldResults).toEqual([
      {
        toolCallId: 'p9',
        toolName: 'tally',
        content: 'tally 1',
        isError: false,
        durationMs: expect.any(Number),
      },
    ]);

    const second = world({ parallel: true, sibling: true });
    const resumed = new Agent({
      ...second.agentOptions,
      messages: stored.messages,
      pendingApprovals: stored.pending,
    });
    const result = await resumed.resume({ decisions: [decide(approval, 'allow')] }).result();
    expect(result.terminateReason).toBe('completed');
    expect([...first.tallies, ...second.tallies]).toEqual([1]);
    expect([...first.writes, ...second.writes]).toEqual(['notes.txt']);
    expect(result.text).toBe('parent done: researcher done: wrote notes.txt | tally 1');
    expect(result.toolCalls.map((call) => [call.id, call.result])).toEqual([
      ['p1', 'researcher done: wrote notes.txt'],
      ['p9', 'tally 1'],
    ]);
    expect(resumed.pendingApprovals).toEqual([]);
    expect(historyProblems(resumed.messages)).toEqual([]);

    // The parent's model is sent what it is sent when nothing paused.
    const uninterrupted = world({ parallel: true, sibling: true, approve: () => 'allow' });
    const straight = await new Agent(uninterrupted.agentOptions).prompt('research tides').result();
    expect(straight.text).toBe(result.text);
    expect(sent([...first.parentProvider.requests, ...second.parentProvider.requests])).toEqual(
      sent(uninterrupted.parentProvider.requests),
    );
  });

  it('a new prompt instead of a decision: the paused call is skipped, the finished one keeps its result', async () => {
    const { first, parent } = await pausedRun({ parallel: true, sibling: true });
    const result = await parent.prompt('never mind').result();
    expect(result.terminateReason).toBe('completed');
    expect(first.tallies).toEqual([1]);
    const results = parent.messages.filter((message) => message.role === 'toolResult');
    expect(results.map((message) => [message.toolCallId, message.isError])).toEqual([
      ['p1', true],
      ['p9', false],
    ]);
    expect(results[1]?.content).toBe('tally 1');
    expect(historyProblems(parent.messages)).toEqual([]);
    expect(parent.pendingApprovals).toEqual([]);
  });

  it('a resume aborted before its turn still answers it with the result it had (sequential in the new process)', async () => {
    const { first, stored } = await pausedRun({ parallel: true, sibling: true });
    const [approval] = stored.pending as PendingApproval[];
    if (approval === undefined) throw new Error('a pending approval expected');
    const second = world({ sibling: true });
    const researcher = second.childProviders.researcher;
    if (researcher === undefined) throw new Error('the researcher provider expected');
    researcher.hang = true;
    const resumed = new Agent({
      ...second.agentOptions,
      messages: stored.messages,
      pendingApprovals: stored.pending,
    });
    resumed.subscribe((event) => {
      if (event.type === 'subagent' && event.event.type === 'tool_call_end')
        setTimeout(() => resumed.abort(), 0);
    });
    const result = await resumed.resume({ decisions: [decide(approval, 'allow')] }).result();
    expect(result.terminateReason).toBe('aborted');
    expect([...first.tallies, ...second.tallies]).toEqual([1]);
    const tally = resumed.messages.find(
      (message) => message.role === 'toolResult' && message.toolCallId === 'p9',
    );
    expect(tally).toMatchObject({ content: 'tally 1', isError: false });
    expect(historyProblems(resumed.messages)).toEqual([]);
  });

  it('a call started after the subagent paused (one call at a time) keeps its result the same way', async () => {
    const {
      first,
      parent,
      result: paused,
    } = await pausedRun({
      parallel: true,
      sibling: true,
      maxParallelTools: 1,
    });
    expect(paused.terminateReason).toBe('await_user');
    expect(first.tallies).toEqual([1]);
    const [approval] = paused.pendingApprovals ?? [];
    if (approval === undefined) throw new Error('a pending approval expected');
    expect(approval.heldResults?.map((held) => held.toolCallId)).toEqual(['p9']);
    const result = await parent.resume({ decisions: [decide(approval, 'allow')] }).result();
    expect(result.terminateReason).toBe('completed');
    expect(first.tallies).toEqual([1]);
    expect(result.text).toBe('parent done: researcher done: wrote notes.txt | tally 1');
    expect(historyProblems(parent.messages)).toEqual([]);
  });

  it('a resume that pauses again holds the results again, with those of the calls it finished behind the pause', async () => {
    const {
      first,
      parent,
      result: paused,
    } = await pausedRun({ parallel: true, twoChildren: true, sibling: true });
    const [researcher, archivist] = paused.pendingApprovals ?? [];
    if (researcher === undefined || archivist === undefined) throw new Error('two approvals expected');
    expect(researcher.heldResults?.map((held) => held.toolCallId)).toEqual(['p9']);
    expect(archivist.heldResults).toBeUndefined();

    // Only the archivist's call is decided: the researcher pauses again at the same call.
    const again = await parent.resume({ decisions: [decide(archivist, 'allow')] }).result();
    expect(again.terminateReason).toBe('await_user');
    expect(first.writes).toEqual(['archive.txt']);
    expect(again.pendingApprovals?.map((approval) => approval.toolCallId)).toEqual(['w1']);
    expect(again.pendingApprovals?.[0]?.heldResults?.map((held) => [held.toolCallId, held.content])).toEqual([
      ['p2', 'archivist done: wrote archive.txt'],
      ['p9', 'tally 1'],
    ]);
    expect(parent.messages.filter((message) => message.role === 'toolResult')).toEqual([]);

    const [last] = again.pendingApprovals ?? [];
    if (last === undefined) throw new Error('a pending approval expected');
    const result = await parent.resume({ decisions: [decide(last, 'allow')] }).result();
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe(
      'parent done: researcher done: wrote notes.txt | archivist done: wrote archive.txt | tally 1',
    );
    expect(first.writes).toEqual(['archive.txt', 'notes.txt']);
    expect(first.tallies).toEqual([1]);
    expect(historyProblems(parent.messages)).toEqual([]);
  });
});

describe('an approval two subagents deep', () => {
  it('names both agents from the root and resumes each level from its state', async () => {
    const build = () => {
      const inner = world();
      const lead = asTool(
        defineAgent({
          name: 'lead',
          description: 'Leads the research',
          promptConfig: {},
          modelConfig: {
            provider: scripted('lead done', [{ id: 'l1', name: 'researcher', input: { topic: 'tides' } }]),
            model: 'm',
          },
          toolConfig: { tools: inner.agentOptions.tools ?? [] },
        }),
        { executor: inner.executor },
      );
      const provider = scripted('root done', [{ id: 'r1', name: 'lead', input: {} }]);
      return { inner, options: { provider, model: 'm', tools: [lead], orchestrator: stepOrchestrator } };
    };
    const first = build();
    const root = new Agent(first.options);
    const paused = await root.prompt('go').result();
    expect(paused.terminateReason).toBe('await_user');
    const [approval] = paused.pendingApprovals ?? [];
    if (approval === undefined) throw new Error('a pending approval expected');
    expect(approval).toMatchObject({
      toolCallId: 'w1',
      agentPath: ['lead', 'researcher'],
      pausedCall: { toolCallId: 'r1', toolName: 'lead' },
    });

    const stored = JSON.parse(JSON.stringify({ messages: root.messages, pending: root.pendingApprovals }));
    const second = build();
    const again = new Agent({
      ...second.options,
      messages: stored.messages,
      pendingApprovals: stored.pending,
    });
    // A decision with the wrong path is refused; the pending approval's path applies.
    expect(() =>
      again.resume({ decisions: [{ ...decide(approval, 'allow'), agentPath: ['researcher'] }] }),
    ).toThrow(ApprovalError);
    const result = await again
      .resume({ decisions: [{ ...decide(approval, 'allow'), agentPath: approval.agentPath }] })
      .result();
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('root done: lead done: researcher done: wrote notes.txt');
    expect([...first.inner.writes, ...second.inner.writes]).toEqual(['notes.txt']);
    expect(second.inner.childProviders.researcher?.requests).toHaveLength(1);
    expect(historyProblems(again.messages)).toEqual([]);
  });
});

describe('nested approvals in a stored session', () => {
  it('the pause is stored; a second manager on the same store decides it', async () => {
    const store = new MemorySessionStore();
    const first = world();
    const manager = new SessionManager({ store, agentOptions: () => first.agentOptions });
    const session = await manager.create();
    const paused = await session.prompt('research tides').result();
    expect(paused.terminateReason).toBe('await_user');

    const second = world();
    const other = new SessionManager({ store, agentOptions: () => second.agentOptions });
    const reopened = await other.get(session.id);
    expect(reopened.status).toBe('await_user');
    const [approval] = reopened.agent.pendingApprovals;
    if (approval === undefined) throw new Error('a stored approval expected');
    expect(approval.agentPath).toEqual(['researcher']);
    const result = await reopened.resume({ decisions: [decide(approval, 'allow')] }).result();
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('parent done: researcher done: wrote notes.txt');
    expect([...first.writes, ...second.writes]).toEqual(['notes.txt']);
    expect(second.childProviders.researcher?.requests).toHaveLength(1);
    const stored = await store.load(session.id);
    expect(stored?.pendingApprovals).toEqual([]);
    expect(historyProblems(stored?.messages ?? [])).toEqual([]);
  });

  it('a result held beside the pause is stored with it and appended, once, by a second manager', async () => {
    const store = new MemorySessionStore();
    const first = world({ parallel: true, sibling: true });
    const manager = new SessionManager({ store, agentOptions: () => first.agentOptions });
    const session = await manager.create();
    expect((await session.prompt('research tides').result()).terminateReason).toBe('await_user');

    const second = world({ parallel: true, sibling: true });
    const reopened = await new SessionManager({ store, agentOptions: () => second.agentOptions }).get(
      session.id,
    );
    const [approval] = reopened.agent.pendingApprovals;
    if (approval === undefined) throw new Error('a stored approval expected');
    expect(approval.heldResults?.map((held) => held.toolCallId)).toEqual(['p9']);
    const result = await reopened.resume({ decisions: [decide(approval, 'allow')] }).result();
    expect(result.text).toBe('parent done: researcher done: wrote notes.txt | tally 1');
    expect([...first.tallies, ...second.tallies]).toEqual([1]);
    const stored = await store.load(session.id);
    expect(stored?.pendingApprovals).toEqual([]);
    expect(historyProblems(stored?.messages ?? [])).toEqual([]);
  });
});
