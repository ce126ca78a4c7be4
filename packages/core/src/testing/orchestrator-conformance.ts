import type { Orchestrator } from '../orchestrator/orchestrator.js';
import {
  type ConformanceCase,
  ConformanceFailure,
  type ConformanceHarness,
  registerCases,
} from './conformance-case.js';
import { type ConformanceDialect, nativeDialect } from './conformance-dialect.js';
import { randomScenario, type Scenario, type ScenarioShape } from './conformance-scenario.js';
import { type InspectedRun, type KitSetup, runScenario, type ScenarioOutcome } from './run-scenario.js';
import { randomSeed, SeededRandom } from './seeded-random.js';
import { shrinkScenario } from './shrink-scenario.js';

/** What an orchestrator claims to do; each claim turns its checks on. */
export interface OrchestratorCapabilities {
  /** Runs the tool calls the model asks for. Default true. */
  tools?: boolean;
  /** Honours `toolExecution: 'parallel'`. Default: as `tools`. */
  parallel?: boolean;
  /** Takes steering messages queued during the run before it completes. Default true. */
  steering?: boolean;
  /** Takes follow-up messages queued during the run before it completes. Default true. */
  followUps?: boolean;
  /** Stops at a call that waits for approval and goes on when resumed. Default: as `tools`. */
  approvals?: boolean;
}

/** Options of `orchestratorConformance`: the harness (`test`, `describe`), the claims and the runs. */
export interface OrchestratorConformanceOptions extends Partial<ConformanceHarness> {
  capabilities?: OrchestratorCapabilities;
  /** How the orchestrator's model speaks (see `ConformanceDialect`). Default `nativeDialect`. */
  dialect?: ConformanceDialect;
  /** The fewest model calls a prompt needs to be answered once the model answers at once (plan-execute: 3). Default 1. */
  minTurns?: number;
  /** Random scripted runs. Default 25. */
  runs?: number;
  /** The seed of the random runs, to replay a failure; printed with every failure. Default: random. */
  seed?: number;
  /** How long one run may take to settle before it counts as hung. Default 10 000 ms. */
  settleMs?: number;
  /** `limits.stopGraceMs` of the kit's agents. Default 1000 ms. */
  stopGraceMs?: number;
  /**
   * Checks of your own, run after the kit's on every run (a prompt, each
   * resume, the last prompt) with its agent, result and events; a throw fails
   * the case (rule `inspect_run`). For histories your providers must accept, say.
   */
  inspectRun?: (run: InspectedRun) => void | Promise<void>;
}

/** The scenario the every-event checks vary: two tool calls, then an answer. */
const reference: Scenario = {
  script: [
    {
      kind: 'tools',
      text: 'Let me look.',
      calls: [
        { id: 'call_read', name: 'read_note', input: { outcome: 'value', size: 3 } },
        { id: 'call_write', name: 'write_note', input: { outcome: 'value', size: 2 } },
      ],
    },
    { kind: 'answer', text: 'The notes are read and written.' },
  ],
  queue: [],
  approver: false,
  answers: ['allow'],
  resumes: [],
  maxTurns: 10,
  parallel: false,
};

function describeScenario(scenario: Scenario): string {
  return JSON.stringify(scenario, null, 2);
}

/**
 * The checks every orchestrator must pass, for any test runner: random
 * scripted runs (seeded) with tool calls, provider failures, queued messages,
 * aborts, policies, approvals and pauses; an abort, a steering and a
 * follow-up message at every event of a reference run; pause and resume;
 * limits. Every run must settle, keep the history valid at every model call
 * and at the end, run no tool twice, balance its turns, keep every queued
 * message, and break no rule of the context. A failure names the rule and,
 * for a random run, prints the seed and the smallest failing script.
 * With `test` (and `describe`) it registers the cases; it returns them either way.
 *
 * @example
 * import { describe, test } from 'vitest';
 * orchestratorConformance(myOrchestrator(), { test, describe });
 */
export function orchestratorConformance(
  orchestrator: Orchestrator | (() => Orchestrator),
  options: OrchestratorConformanceOptions = {},
): ConformanceCase[] {
  const make = typeof orchestrator === 'function' ? orchestrator : () => orchestrator;
  const name = make().name;
  const claims = options.capabilities ?? {};
  const tools = claims.tools ?? true;
  const shape: ScenarioShape = {
    tools,
    parallel: claims.parallel ?? tools,
    steering: claims.steering ?? true,
    followUps: claims.followUps ?? true,
    approvals: claims.approvals ?? tools,
  };
  const minTurns = options.minTurns ?? 1;
  const setup: KitSetup = {
    orchestrator: make,
    dialect: options.dialect ?? nativeDialect,
    minTurns,
    settleMs: options.settleMs ?? 10_000,
    stopGraceMs: options.stopGraceMs ?? 1000,
    steering: shape.steering,
    followUps: shape.followUps,
    inspectRun: options.inspectRun,
  };
  const base: Scenario = tools
    ? reference
    : { ...reference, script: [reference.script[1] as Scenario['script'][0]] };
  const cases: ConformanceCase[] = [
    { name: 'random scripted runs keep every invariant', run: () => randomRuns(setup, shape, options, name) },
    {
      name: 'an abort at every event ends the run aborted, with a valid history and a usable agent',
      run: () => abortEverywhere(setup, base),
    },
  ];
  if (shape.steering || shape.followUps)
    cases.push({
      name: 'steering and follow-up messages queued at every event are taken or kept, never lost',
      run: () => queueEverywhere(setup, base, shape),
    });
  if (shape.approvals)
    cases.push({
      name: 'a pause for approval resumes where it stopped and runs the call once',
      run: () => pauseAndResume(setup),
    });
  cases.push({
    name: 'every model call counts toward maxTurns, a token budget ends the run, and a timeout ends a run whose model hangs',
    run: () => limits(setup, base),
  });
  return registerCases(`orchestratorConformance: ${name}`, cases, options);
}

async function trial(setup: KitSetup, scenario: Scenario): Promise<ConformanceFailure | undefined> {
  try {
    await runScenario(setup, scenario);
    return undefined;
  } catch (error) {
    if (error instanceof ConformanceFailure) return error;
    return new ConformanceFailure(
      'kit_error',
      `the run threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
}

async function randomRuns(
  setup: KitSetup,
  shape: ScenarioShape,
  options: OrchestratorConformanceOptions,
  name: string,
): Promise<void> {
  const seed = options.seed ?? randomSeed();
  const random = new SeededRandom(seed);
  const runs = options.runs ?? 25;
  for (let run = 1; run <= runs; run++) {
    const scenario = randomScenario(random, shape, setup.minTurns);
    const failure = await trial(setup, scenario);
    if (failure === undefined) continue;
    const smallest = await shrinkScenario(scenario, failure, (candidate) => trial(setup, candidate));
    throw new ConformanceFailure(
      smallest.failure.rule,
      `orchestrator '${name}', random run ${run} of ${runs}, seed ${seed} (replay with { seed: ${seed} }): ${smallest.failure.message.replace(/^\[[^\]]*\] /, '')}\nSmallest failing script:\n${describeScenario(smallest.scenario)}`,
    );
  }
}

/** Runs `scenario`, naming it in any failure. */
async function named(setup: KitSetup, scenario: Scenario, what: string): Promise<ScenarioOutcome> {
  try {
    return await runScenario(setup, scenario);
  } catch (error) {
    if (error instanceof ConformanceFailure)
      throw new ConformanceFailure(
        error.rule,
        `${what}: ${error.message.replace(/^\[[^\]]*\] /, '')}\nScript:\n${describeScenario(scenario)}`,
      );
    throw error;
  }
}

/** The events of the reference run until its orchestrator returned: the positions the every-event checks try. */
async function referenceLength(setup: KitSetup, base: Scenario): Promise<number> {
  const outcome = await named(setup, base, 'the reference run');
  const first = outcome.results[0];
  if (first?.terminateReason !== 'completed')
    throw new ConformanceFailure(
      'reference_completes',
      `the reference run (${base.script.length === 2 ? 'two tool calls, then an answer' : 'an answer'}) ended ${first?.terminateReason}: ${first?.error?.message ?? ''}`,
    );
  // Events after run() returned (a turn core ended for it, agent_end) come too late for an abort or a message to change the run.
  return outcome.returnedAt[0] ?? outcome.eventCounts[0] ?? 0;
}

async function abortEverywhere(setup: KitSetup, base: Scenario): Promise<void> {
  const events = await referenceLength(setup, base);
  for (let at = 0; at < events; at++) {
    const outcome = await named(setup, { ...base, abortAt: at }, `abort at event ${at}`);
    const first = outcome.results[0];
    if (at === 0 && outcome.requestCounts[0] !== 0)
      throw new ConformanceFailure(
        'abort_ends_run',
        `an abort at agent_start, before any model call, was followed by ${outcome.requestCounts[0]} model requests`,
      );
    if (first?.terminateReason !== 'aborted')
      throw new ConformanceFailure(
        'abort_ends_run',
        `abort at event ${at} of the reference run: the run ended ${first?.terminateReason}${first?.error === undefined ? '' : `: ${first.error.message}`}`,
      );
  }
}

async function queueEverywhere(setup: KitSetup, base: Scenario, shape: ScenarioShape): Promise<void> {
  const positions = await referenceLength(setup, base);
  for (let at = 0; at < positions; at++)
    await named(
      setup,
      { ...base, queue: [{ at, steer: shape.steering, followUp: shape.followUps }] },
      `messages queued at event ${at}`,
    );
}

async function pauseAndResume(setup: KitSetup): Promise<void> {
  const call = { id: 'call_ask', name: 'write_note', input: { outcome: 'value', size: 1 } };
  for (const how of ['same_agent', 'from_json'] as const) {
    for (const decision of ['allow', 'deny'] as const) {
      const scenario: Scenario = {
        ...reference,
        script: [
          { kind: 'tools', calls: [call] },
          { kind: 'answer', text: 'Written.' },
        ],
        policy: { read_note: 'allow', write_note: 'ask', run_job: 'allow' },
        answers: [decision],
        resumes: [how],
      };
      const what = `a call waiting for approval, resumed (${how}) with '${decision}'`;
      const { results, runsByTool } = await named(setup, scenario, what);
      const [paused, resumed] = results;
      if (paused?.terminateReason !== 'await_user')
        throw new ConformanceFailure(
          'pauses_for_approval',
          `${what}: the run ended ${paused?.terminateReason} instead of await_user`,
        );
      if (resumed?.terminateReason !== 'completed')
        throw new ConformanceFailure(
          'resume_completes',
          `${what}: the resumed run ended ${resumed?.terminateReason}${resumed?.error === undefined ? '' : `: ${resumed.error.message}`}`,
        );
      const ran = runsByTool.get(call.name) ?? 0;
      if (ran !== (decision === 'allow' ? 1 : 0))
        throw new ConformanceFailure('approved_call_runs_once', `${what}: the call ran ${ran} times`);
    }
  }
}

async function limits(setup: KitSetup, base: Scenario): Promise<void> {
  const first = base.script[0] as Scenario['script'][number];
  for (let maxTurns = setup.minTurns; maxTurns <= setup.minTurns + 2; maxTurns++) {
    // More model calls than the limit allows, each asking for tools again.
    const script = Array.from({ length: maxTurns + 3 }, (_, index) =>
      first.kind === 'tools'
        ? { ...first, calls: first.calls.map((call) => ({ ...call, id: `${call.id}_${index}` })) }
        : first,
    );
    await named(setup, { ...base, script, maxTurns }, `a script longer than maxTurns ${maxTurns}`);
  }
  // A budget two replies spend: the run ends max_tokens, however many model calls the orchestrator would make.
  const long = Array.from(
    { length: setup.minTurns + 6 },
    () => base.script[base.script.length - 1] as Scenario['script'][number],
  );
  const budget = await named(
    setup,
    { ...base, script: long, maxTurns: 50, maxTokens: 30 },
    'a token budget of 30 under limits.maxTokens',
  );
  const spent = budget.results[0];
  if (spent?.terminateReason !== 'max_tokens' && spent?.terminateReason !== 'completed')
    throw new ConformanceFailure(
      'max_tokens_kept',
      `a run under limits.maxTokens 30 ended ${spent?.terminateReason}, not max_tokens`,
    );
  if ((spent?.usage.input ?? 0) + (spent?.usage.output ?? 0) > 30 + 2 * 20)
    throw new ConformanceFailure(
      'max_tokens_kept',
      `a run under limits.maxTokens 30 went on to ${(spent?.usage.input ?? 0) + (spent?.usage.output ?? 0)} tokens`,
    );
  const { results } = await named(
    setup,
    { ...base, hangFrom: 0, timeoutMs: 30 },
    'a model that never answers, under limits.timeoutMs 30',
  );
  if (results[0]?.terminateReason !== 'timeout')
    throw new ConformanceFailure(
      'timeout_ends_run',
      `a model that never answers ended the run ${results[0]?.terminateReason}, not timeout`,
    );
}
