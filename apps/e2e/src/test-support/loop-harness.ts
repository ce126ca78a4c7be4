import {
  Agent,
  type AgentEvent,
  type AgentMessage,
  type AgentOptions,
  type AgentResult,
  type ApprovalDecision,
  type AgentRun,
  historyProblems,
  type ModelRequest,
  type Orchestrator,
  type ToolExecution,
} from '@agent-core/core';
import { type MockTurn, mock } from '@agent-core/provider-mock';
import type { Surroundings } from './loop-scenario.js';
import type { LoopStatistics } from './loop-statistics.js';
import { loopTools, toolNames } from './loop-tools.js';
import { providerRequestProblems } from './request-builders.js';

/** Answers the model calls of one property run from its script; `wrapUp` switches to replies that end a request at once. */
export interface Replier {
  turn(request: ModelRequest): MockTurn;
  wrapUp: boolean;
}

/** How one orchestrator is driven by the property runs. */
export interface LoopAdapter<Script> {
  name: string;
  orchestrator(script: Script): Orchestrator;
  toolExecution(script: Script): ToolExecution;
  /** The fewest model calls a prompt needs to answer once the replies wrap up: `maxTurns` is never below it. */
  minTurns: number;
  replier(script: Script, nextId: () => string): Replier;
}

/** Why a property run failed, with the run's story for the report. */
export class LoopInvariantError extends Error {}

function expectThat(condition: boolean, message: string): void {
  if (!condition) throw new LoopInvariantError(message);
}

/** Waits for a run's result; a result that never settles fails the property instead of hanging it. */
async function settle(run: AgentRun, label: string): Promise<AgentResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new LoopInvariantError(`${label}: result() did not settle in 20 s`)),
      20_000,
    );
  });
  try {
    return await Promise.race([run.result(), hung]);
  } finally {
    clearTimeout(timer);
  }
}

const endings = new Set([
  'completed',
  'max_turns',
  'timeout',
  'aborted',
  'max_tokens',
  'output_limit',
  'await_user',
  'error',
]);

/** Everything one run must keep, whatever happened in it. */
function checkRun(
  label: string,
  agent: Agent,
  result: AgentResult,
  events: readonly AgentEvent[],
  queued: readonly AgentMessage[],
  requests: readonly ModelRequest[],
): void {
  expectThat(endings.has(result.terminateReason), `${label}: unknown end ${result.terminateReason}`);
  expectThat(events[0]?.type === 'agent_start', `${label}: the first event is ${events[0]?.type}`);
  expectThat(events.at(-1)?.type === 'agent_end', `${label}: the last event is ${events.at(-1)?.type}`);
  for (let index = 1; index < events.length; index++) {
    const [before, after] = [events[index - 1] as AgentEvent, events[index] as AgentEvent];
    expectThat(after.seq > before.seq, `${label}: seq ${after.seq} (${after.type}) after ${before.seq}`);
    expectThat(after.runId === result.runId, `${label}: an event of another run (${after.type})`);
  }
  const ends = events.filter((event) => event.type === 'tool_call_end').map((event) => event.toolCall.id);
  expectThat(new Set(ends).size === ends.length, `${label}: a tool call ended twice: ${ends.join(', ')}`);
  const paused = result.terminateReason === 'await_user';
  const problems = historyProblems(agent.messages, { allowPendingCalls: paused });
  expectThat(problems.length === 0, `${label}: history problems: ${problems.join('; ')}`);
  if (paused)
    expectThat((result.pendingApprovals?.length ?? 0) > 0, `${label}: paused with no approval to decide`);
  const ids = result.toolCalls.map((call) => call.id);
  expectThat(new Set(ids).size === ids.length, `${label}: tool call records repeat an id: ${ids.join(', ')}`);
  const everywhere = [...agent.messages, ...agent.queued.steering, ...agent.queued.followUp];
  for (const message of queued) {
    const places = everywhere.filter((candidate) => candidate === message).length;
    expectThat(places === 1, `${label}: a queued message is in ${places} places: ${JSON.stringify(message)}`);
  }
  for (const request of requests) {
    const sent = historyProblems(request.messages);
    expectThat(sent.length === 0, `${label}: the model was sent a history with problems: ${sent.join('; ')}`);
  }
}

/**
 * Runs one scenario: a prompt with the surroundings' queued messages, abort,
 * policy and approvals; each pause resumed as the surroundings say (on the
 * same agent or on a new one built from the stored JSON); then one more
 * prompt. Throws `LoopInvariantError` on the first broken invariant.
 */
export async function runScenario<Script>(
  adapter: LoopAdapter<Script>,
  script: Script,
  surroundings: Surroundings,
  statistics?: LoopStatistics,
): Promise<void> {
  statistics?.scenario();
  const { tools, executions } = loopTools();
  let ids = 0;
  const replier = adapter.replier(script, () => `call_${++ids}`);
  const provider = mock({ turns: (request) => replier.turn(request), chunkSize: 6 });
  const answers = [...surroundings.answers];
  let answered = 0;
  const nextAnswer = () => answers[answered++ % answers.length] ?? 'allow';
  const options: AgentOptions = {
    provider,
    model: 'mock',
    tools,
    orchestrator: adapter.orchestrator(script),
    toolExecution: adapter.toolExecution(script),
    limits: { maxTurns: Math.max(adapter.minTurns, surroundings.maxTurns) },
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    ...(surroundings.policy === undefined
      ? {}
      : { policy: { tools: surroundings.policy, otherwise: 'allow' } }),
    ...(surroundings.approver === 'at_once' ? { approve: () => nextAnswer() } : {}),
    ...(surroundings.contextBudget === undefined
      ? {}
      : { contextWindow: { budgetTokens: surroundings.contextBudget } }),
  };
  let agent = new Agent(options);
  let queued: AgentMessage[] = [];
  let events: AgentEvent[] = [];
  let seen = 0;
  let first = true;
  const listen = (target: Agent) =>
    target.subscribe((event) => {
      events.push(event);
      if (!first) return;
      const position = seen++;
      for (const point of surroundings.queue.filter((entry) => entry.at === position)) {
        if (point.steer) queued.push(steerOf(target, `steer at ${position}`));
        if (point.followUp) queued.push(followUpOf(target, `follow up at ${position}`));
      }
      if (surroundings.abortAt === position) target.abort();
    });
  listen(agent);
  let requestsSeen = 0;
  const check = (label: string, result: AgentResult) => {
    statistics?.run(label.replace(/ \d+.*/, ''), result, events);
    checkRun(label, agent, result, events, queued, provider.requests.slice(requestsSeen));
    requestsSeen = provider.requests.length;
    events = [];
  };

  let result = await settle(agent.prompt('Please work through this.'), 'the prompt');
  first = false;
  check('the prompt', result);
  for (const [index, how] of surroundings.resumes.entries()) {
    if (result.terminateReason !== 'await_user') break;
    const decisions: ApprovalDecision[] = agent.pendingApprovals.map((approval) => ({
      toolCallId: approval.toolCallId,
      inputHash: approval.inputHash,
      decision: nextAnswer(),
    }));
    if (how === 'from_json') {
      const stored = JSON.parse(
        JSON.stringify({
          messages: agent.messages,
          pendingApprovals: agent.pendingApprovals,
          alwaysAllowedTools: agent.alwaysAllowedTools,
        }),
      );
      agent = new Agent({ ...options, ...stored });
      queued = [];
      listen(agent);
    }
    result = await settle(agent.resume({ decisions }), `resume ${index + 1} (${how})`);
    check(`resume ${index + 1} (${how})`, result);
  }

  replier.wrapUp = true;
  const last = await settle(agent.prompt('Once more, briefly.'), 'the last prompt');
  check('the last prompt', last);
  // Follow-ups the first run left queued are taken now, so the limit may still come first.
  const overflow = last.terminateReason === 'error' && last.error?.code === 'context_overflow';
  expectThat(
    last.terminateReason === 'completed' || last.terminateReason === 'max_turns' || overflow,
    `the last prompt ended ${last.terminateReason}: ${last.error?.message}`,
  );
  for (const [id, count] of executions) expectThat(count === 1, `tool call ${id} ran ${count} times`);
  const sendable = await providerRequestProblems(agent.messages, toolSpecs());
  expectThat(sendable.length === 0, `the history cannot be sent: ${sendable.join('; ')}`);
}

function steerOf(agent: Agent, content: string): AgentMessage {
  const message: AgentMessage = { role: 'user', content };
  agent.steer(message);
  return message;
}

function followUpOf(agent: Agent, content: string): AgentMessage {
  const message: AgentMessage = { role: 'user', content };
  agent.followUp(message);
  return message;
}

/** The tools as a request declares them, so a history with tool calls goes out with its tools. */
function toolSpecs() {
  return toolNames.map((name) => ({
    name,
    description: name,
    parameters: { type: 'object', properties: {} },
  }));
}
