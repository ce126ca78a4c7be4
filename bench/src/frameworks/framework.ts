import type { RunOutcome, Scenario } from '../scenario.js';

/** One contender: a way to run a scenario end to end and hand back its history. */
export interface Framework {
  /** Stable id, used on the command line and in result files. */
  id: string;
  /** Row label in the tables. */
  label: string;
  /** Package and version measured, or a short note. */
  version: string;
  /** Whether the run can stream text deltas to its consumer. */
  streams: boolean;
  /** Whether one model turn can ask for several tool calls (ReAct runs one action per step). */
  multipleCalls: boolean;
  /** Runs one scenario on a fresh agent. */
  run(scenario: Scenario): Promise<RunOutcome>;
}
