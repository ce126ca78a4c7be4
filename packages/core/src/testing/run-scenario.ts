import { Agent } from '../agent/agent.js';
import { AgentError } from '../errors/agent-error.js';
import type { AgentOptions } from '../agent/agent-options.js';
import type { AgentRun } from '../agent/agent-run.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { ApprovalDecision } from '../governance/pending-approval.js';
import type { AgentMessage } from '../messages/messages.js';
import type { Orchestrator } from '../orchestrator/orchestrator.js';
import type { AgentResult } from '../result/agent-result.js';
import { ConformanceFailure } from './conformance-case.js';
import type { ConformanceDialect, ScriptedReply } from './conformance-dialect.js';
import type { Scenario } from './conformance-scenario.js';
import { kitTools } from './kit-tools.js';
import { type CheckClaims, checkRun, type QueuedMessage, type RunRecord } from './loop-checks.js';
import { scriptedModel } from './scripted-model.js';

/** How the kit runs one orchestrator. */
export interface KitSetup extends CheckClaims {
  orchestrator: () => Orchestrator;
  dialect: ConformanceDialect;
  minTurns: number;
  /** How long a run may take to settle before the kit calls it hung. */
  settleMs: number;
  /** `limits.stopGraceMs` of the kit's agents. */
  stopGraceMs: number;
  /** The caller's own checks of each run, after the kit's. */
  inspectRun: ((run: InspectedRun) => void | Promise<void>) | undefined;
}

/** A run the kit checked, handed to `inspectRun`: its label (`the prompt`, `resume 1 (same_agent)`, `the last prompt`), agent, result and events. */
export interface InspectedRun {
  label: string;
  agent: Agent;
  result: AgentResult;
  events: readonly AgentEvent[];
}

/** The reply that ends a request at once, once the script is spent. */
export const wrapUp: ScriptedReply = { kind: 'answer', text: 'All done.' };

/** Waits for a run's result; one that never settles fails the check instead of hanging it. */
export async function settled(run: AgentRun, label: string, settleMs: number): Promise<AgentResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ConformanceFailure('result_settles', `${label}: result() did not settle within ${settleMs} ms`),
        ),
      settleMs,
    );
  });
  try {
    return await Promise.race([run.result(), hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** The orchestrator, wrapped so the kit knows at which event its run() returned, and whether it rejected with a stop. */
function watched(
  inner: Orchestrator,
  returned: (at: number, stop: string | undefined) => void,
  events: () => number,
): Orchestrator {
  return {
    name: inner.name,
    async run(context) {
      try {
        const end = await inner.run(context);
        returned(events(), undefined);
        return end;
      } catch (error) {
        const stop =
          AgentError.isInstance(error) && error.name === 'RunStoppedError' ? error.message : undefined;
        returned(events(), stop);
        throw error;
      }
    },
  };
}

/**
 * Runs one scenario: a prompt with the scenario's queued messages, abort,
 * policy and approvals; each pause resumed as it says (on the same agent or a
 * new one from the stored JSON); then one more prompt that must end well.
 * Throws `ConformanceFailure` on the first broken rule.
 */
export async function runScenario(setup: KitSetup, scenario: Scenario): Promise<ScenarioOutcome> {
  const { tools, executions, runsByTool } = kitTools();
  let next = 0;
  let wrappingUp = false;
  const model = scriptedModel((): ScriptedReply | 'hang' => {
    if (wrappingUp) return wrapUp;
    const index = next++;
    if (scenario.hangFrom !== undefined && index >= scenario.hangFrom) return 'hang';
    return scenario.script[index] ?? wrapUp;
  }, setup.dialect);
  const results: AgentResult[] = [];
  const eventCounts: number[] = [];
  const returns: (number | undefined)[] = [];
  const requestCounts: number[] = [];
  const answers = scenario.answers.length > 0 ? scenario.answers : (['allow'] as const);
  let answered = 0;
  const nextAnswer = () => answers[answered++ % answers.length] ?? 'allow';
  let events: AgentEvent[] = [];
  let returnedAt: number | undefined;
  let stopIgnored: string | undefined;
  const maxTurns = Math.max(setup.minTurns, scenario.maxTurns);
  const options: AgentOptions = {
    provider: model,
    model: 'conformance',
    tools,
    orchestrator: watched(
      setup.orchestrator(),
      (at, stop) => {
        returnedAt = at;
        stopIgnored = stop;
      },
      () => events.length,
    ),
    toolExecution: scenario.parallel ? 'parallel' : 'sequential',
    limits: {
      maxTurns,
      stopGraceMs: setup.stopGraceMs,
      ...(scenario.timeoutMs === undefined ? {} : { timeoutMs: scenario.timeoutMs }),
      ...(scenario.maxTokens === undefined ? {} : { maxTokens: scenario.maxTokens }),
    },
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    ...(scenario.policy === undefined
      ? {}
      : { policy: { tools: scenario.policy, otherwise: 'allow' as const } }),
    ...(scenario.approver ? { approve: () => nextAnswer() } : {}),
    ...(scenario.contextBudget === undefined
      ? {}
      : { contextWindow: { budgetTokens: scenario.contextBudget } }),
  };
  let agent = new Agent(options);
  let queued: QueuedMessage[] = [];
  let first = true;
  const listen = (target: Agent) =>
    target.subscribe((event) => {
      const position = events.length;
      events.push(event);
      if (!first) return;
      for (const point of scenario.queue) {
        if (point.at !== position) continue;
        if (point.steer) queue(target, 'steering', position);
        if (point.followUp) queue(target, 'follow_up', position);
      }
      if (scenario.abortAt === position) target.abort();
    });
  const queue = (target: Agent, kind: QueuedMessage['kind'], at: number) => {
    const message: AgentMessage = { role: 'user', content: `${kind} at ${at}` };
    if (kind === 'steering') target.steer(message);
    else target.followUp(message);
    queued.push({ message, kind, at });
  };
  listen(agent);
  let requestsSeen = 0;
  const check = async (label: string, result: AgentResult) => {
    const record: RunRecord = {
      label,
      agent,
      result,
      events,
      requests: model.requests.slice(requestsSeen),
      queued,
      returnedAt,
      stopIgnored,
      maxTurns,
    };
    checkRun(record, setup);
    if (setup.inspectRun !== undefined) {
      try {
        await setup.inspectRun({ label, agent, result, events });
      } catch (error) {
        if (error instanceof ConformanceFailure) throw error;
        throw new ConformanceFailure(
          'inspect_run',
          `${label}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    results.push(result);
    eventCounts.push(events.length);
    returns.push(returnedAt);
    requestCounts.push(model.requests.length - requestsSeen);
    requestsSeen = model.requests.length;
    events = [];
    queued = [];
    returnedAt = undefined;
    stopIgnored = undefined;
  };

  let result = await settled(agent.prompt('Please work through this.'), 'the prompt', setup.settleMs);
  first = false;
  await check('the prompt', result);
  for (const [index, how] of scenario.resumes.entries()) {
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
          orchestratorState: agent.orchestratorState,
        }),
      );
      agent = new Agent({ ...options, ...stored });
      listen(agent);
    }
    const label = `resume ${index + 1} (${how})`;
    result = await settled(agent.resume({ decisions }), label, setup.settleMs);
    await check(label, result);
  }

  wrappingUp = true;
  const last = await settled(agent.prompt('Once more, briefly.'), 'the last prompt', setup.settleMs);
  await check('the last prompt', last);
  const overflow = last.terminateReason === 'error' && last.error?.code === 'context_overflow';
  const budget = scenario.maxTokens !== undefined && last.terminateReason === 'max_tokens';
  if (last.terminateReason !== 'completed' && last.terminateReason !== 'max_turns' && !overflow && !budget)
    throw new ConformanceFailure(
      'wraps_up',
      `the last prompt, answered at once by the model, ended ${last.terminateReason}${last.error === undefined ? '' : `: ${last.error.message}`}`,
    );
  for (const [id, count] of executions)
    if (count > 1) throw new ConformanceFailure('tool_runs_once', `tool call ${id} ran ${count} times`);
  return { results, executions, runsByTool, eventCounts, returnedAt: returns, requestCounts };
}

/** What a scenario's runs gave: each run's result in order (the prompt's first), and each call id's executions. */
export interface ScenarioOutcome {
  results: AgentResult[];
  executions: ReadonlyMap<string, number>;
  /** Executions per tool name. */
  runsByTool: ReadonlyMap<string, number>;
  /** How many events each run emitted. */
  eventCounts: number[];
  /** For each run, the event count when the orchestrator's run() returned (undefined: it never did). */
  returnedAt: (number | undefined)[];
  /** For each run, how many model requests it made (retries included). */
  requestCounts: number[];
}
