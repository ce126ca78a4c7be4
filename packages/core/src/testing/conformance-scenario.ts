import type { ScriptedCall, ScriptedReply } from './conformance-dialect.js';
import { type KitToolName, kitToolNames } from './kit-tools.js';
import type { SeededRandom } from './seeded-random.js';

/** A verdict a policy gives a kit tool. */
export type Verdict = 'allow' | 'ask' | 'deny';

/**
 * One random run of the orchestrator kit, as plain JSON (it is printed when
 * it fails): the model's replies, in order, and what happens around the run.
 */
export interface Scenario {
  script: ScriptedReply[];
  /** Event positions of the first run at which a steering and/or follow-up message is queued. */
  queue: { at: number; steer: boolean; followUp: boolean }[];
  /** The event position of the first run at which `agent.abort()` is called; absent: never. */
  abortAt?: number;
  /** The policy's verdict per kit tool; absent: every call allowed. */
  policy?: Record<KitToolName, Verdict>;
  /** An approver answers at once (from `answers`); without one an `ask` pauses the run. */
  approver: boolean;
  /** Answers given in turn: by the approver, then as the decisions of each resume. */
  answers: ('allow' | 'allow_always' | 'deny')[];
  /** How each pause is resumed, in turn: the same agent, or a new one from the stored JSON. */
  resumes: ('same_agent' | 'from_json')[];
  /** A context window budget in tokens small enough to compact; absent: none. */
  contextBudget?: number;
  /** `limits.maxTurns`, raised to what the orchestrator needs to answer at all. */
  maxTurns: number;
  /** `toolExecution: 'parallel'`, when the orchestrator claims it. */
  parallel: boolean;
  /** `limits.timeoutMs`; absent: none. */
  timeoutMs?: number;
  /** `limits.maxTokens`; absent: none. */
  maxTokens?: number;
  /** From this model call on (counting from 0), the model never answers until the call is aborted. */
  hangFrom?: number;
}

/** What the orchestrator claims, which decides what the random scenarios contain. */
export interface ScenarioShape {
  tools: boolean;
  parallel: boolean;
  steering: boolean;
  followUps: boolean;
  approvals: boolean;
}

const words = ['alpha', 'beta', 'gamma', 'note', 'the', 'answer', 'is', '45', 'done', 'ok'];

/** A few words. */
export function randomText(random: SeededRandom): string {
  return random.many(random.int(1, 12), () => random.pick(words)).join(' ');
}

function randomCall(random: SeededRandom, id: string): ScriptedCall {
  const name = random.chance(0.1) ? 'missing_tool' : random.pick(kitToolNames);
  const input = random.chance(0.1)
    ? { outcome: 'explode', size: 'many' }
    : { outcome: random.pick(['value', 'value', 'value', 'throw', 'hang']), size: random.int(0, 40) };
  return { id, name, input };
}

/** One scripted reply: mostly answers and tool calls, sometimes a provider failure. */
export function randomReply(random: SeededRandom, shape: ScenarioShape, nextId: () => string): ScriptedReply {
  if (random.chance(0.1))
    return {
      kind: 'failure',
      error: random.pick(['overloaded', 'network', 'server', 'invalid_request'] as const),
      afterText: random.chance(0.5),
    };
  const thinking = random.chance(0.3) ? { thinking: randomText(random) } : {};
  if (shape.tools && random.chance(0.6)) {
    const calls = random.many(random.int(1, 3), () => randomCall(random, nextId()));
    return { kind: 'tools', calls, ...thinking, ...(random.chance(0.5) ? { text: randomText(random) } : {}) };
  }
  return { kind: 'answer', text: randomText(random), ...thinking };
}

/** A random scenario for an orchestrator of `shape` that needs `minTurns` model calls to answer. */
export function randomScenario(random: SeededRandom, shape: ScenarioShape, minTurns: number): Scenario {
  let ids = 0;
  const nextId = () => `call_${++ids}`;
  const script = random.many(random.int(0, 6), () => randomReply(random, shape, nextId));
  const scenario: Scenario = {
    script,
    queue: random.many(random.int(0, 3), () => ({
      at: random.int(0, 60),
      steer: shape.steering && random.chance(0.5),
      followUp: shape.followUps && random.chance(0.5),
    })),
    approver: random.chance(0.33),
    answers: random.many(random.int(1, 6), () => random.pick(['allow', 'allow_always', 'deny'] as const)),
    resumes: random.many(random.int(0, 3), () => random.pick(['same_agent', 'from_json'] as const)),
    maxTurns: random.int(minTurns, minTurns + 10),
    parallel: shape.parallel && random.chance(0.5),
  };
  if (random.chance(0.25)) scenario.abortAt = random.int(0, 60);
  if (shape.tools && shape.approvals && random.chance(0.5)) {
    const verdict = () => random.pick(['allow', 'ask', 'ask', 'deny'] as const);
    scenario.policy = { read_note: verdict(), write_note: verdict(), run_job: verdict() };
  }
  if (random.chance(0.25)) scenario.contextBudget = random.int(300, 3000);
  return scenario;
}
