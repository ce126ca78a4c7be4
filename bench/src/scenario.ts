/**
 * One benchmark scenario, the same for every framework: a scripted model that
 * asks for `callsPerStep` calls of the `add` tool on each of `steps` turns and
 * then answers, optionally streaming `deltas` text deltas per turn first.
 */
export interface Scenario {
  /** Turns that call tools before the final answer. */
  steps: number;
  /** Text deltas the model streams on every turn; 0 means the model does not stream. */
  deltas: number;
  /** Tool calls per turn. */
  callsPerStep: number;
  /** How long each tool waits before answering, in milliseconds; 0 answers at once. */
  toolDelayMs: number;
  /** The consumer iterates every event of the run (otherwise it only awaits the result). */
  iterate: boolean;
  /** Model latency before each reply, in milliseconds (0: none). */
  modelLatency?: (call: number) => number;
  /**
   * Called when the model is asked (`start`), with when its reply was due
   * (`start` + latency) and when it arrived (the latency timer fired and the model code runs again).
   */
  onModelCall?: (start: number, due: number, arrived: number) => void;
}

/** What a framework run hands back: its own history, to check and to size. */
export interface RunOutcome {
  /** The framework's history after the run, in its own format. */
  history: unknown;
  /** The final answer text. */
  text: string;
  /** Events the consumer saw (0 when it did not iterate). */
  events: number;
  /** What a user keeps after the run (the agent, the result); held while heap growth is measured. */
  retained?: unknown;
}

/** A scripted tool call: `add(a, b)`. */
export interface ScriptedCall {
  id: string;
  input: { a: number; b: number };
}

/** One scripted reply: tool calls, or the final answer when `calls` is empty. */
export interface ScriptedReply {
  calls: ScriptedCall[];
  /** The text of the reply: the streamed deltas joined, or the final answer. */
  text: string;
}

/** The text of one delta; deltas of a turn join into the reply's text. */
export const deltaText = 'tok ';
/** The final answer of every run. */
export const finalAnswer = 'All sums are done.';
/** The user's prompt of every run. */
export const promptText = 'Add the numbers, one step at a time.';
/** The tool's name and description, shared by every framework. */
export const toolName = 'add';
export const toolDescription = 'Adds two numbers and returns the sum.';

/** The scripted model's reply to call number `call` (from 0). */
export function replyFor(scenario: Scenario, call: number): ScriptedReply {
  const streamed = scenario.deltas > 0 ? deltaText.repeat(scenario.deltas) : '';
  if (call >= scenario.steps) return { calls: [], text: streamed + finalAnswer };
  const calls: ScriptedCall[] = [];
  for (let index = 0; index < scenario.callsPerStep; index++) {
    calls.push({ id: `call_${call}_${index}`, input: { a: call, b: index } });
  }
  return { calls, text: streamed };
}

/** Tool executions so far, in this process: lets tests check that every framework ran every call. */
export const executions = { count: 0 };

/** What the tool returns: the sum, written so each call's result is unique in a history. */
export function addResult(input: { a: number; b: number }): string {
  executions.count++;
  return `${input.a}+${input.b}=${input.a + input.b}`;
}

/** Waits `ms` milliseconds; resolves at once (no timer) for 0. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Waits out the scripted model latency of a call, if any, and reports the
 * request time and the time the reply arrived.
 */
export async function modelLatency(scenario: Scenario, call: number): Promise<void> {
  const latency = scenario.modelLatency;
  if (latency === undefined) return;
  const start = performance.now();
  const ms = latency(call);
  if (ms > 0) await delay(ms);
  scenario.onModelCall?.(start, start + ms, performance.now());
}

/** The scenario of workloads 1 and 2. */
export function stepScenario(steps: number, deltas: number, iterate: boolean): Scenario {
  return { steps, deltas, callsPerStep: 1, toolDelayMs: 0, iterate };
}

/**
 * Makes a tool factory that builds one tool per tool delay and reuses it, as
 * an app defines its tools once and creates agents per session.
 */
export function onePerDelay<T>(make: (toolDelayMs: number) => T): (scenario: Scenario) => T {
  const made = new Map<number, T>();
  return (scenario) => {
    let tool = made.get(scenario.toolDelayMs);
    if (tool === undefined) {
      tool = make(scenario.toolDelayMs);
      made.set(scenario.toolDelayMs, tool);
    }
    return tool;
  };
}
