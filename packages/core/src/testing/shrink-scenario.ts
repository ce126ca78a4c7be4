import type { ConformanceFailure } from './conformance-case.js';
import type { Scenario } from './conformance-scenario.js';

/** Runs a scenario: the failure it shows, or undefined when it passes. */
export type ScenarioTrial = (scenario: Scenario) => Promise<ConformanceFailure | undefined>;

/** Smaller versions of a scenario, one change each: a reply, a call or a disturbance less. */
function* smaller(scenario: Scenario): Generator<Scenario> {
  const { script } = scenario;
  for (let index = 0; index < script.length; index++)
    yield { ...scenario, script: [...script.slice(0, index), ...script.slice(index + 1)] };
  for (let index = 0; index < script.length; index++) {
    const reply = script[index];
    if (reply?.kind !== 'tools') continue;
    for (let call = 0; call < reply.calls.length && reply.calls.length > 1; call++) {
      const calls = [...reply.calls.slice(0, call), ...reply.calls.slice(call + 1)];
      yield { ...scenario, script: script.map((item, at) => (at === index ? { ...reply, calls } : item)) };
    }
  }
  for (let index = 0; index < scenario.queue.length; index++)
    yield { ...scenario, queue: [...scenario.queue.slice(0, index), ...scenario.queue.slice(index + 1)] };
  if (scenario.abortAt !== undefined) {
    const { abortAt: _abortAt, ...rest } = scenario;
    yield rest;
  }
  if (scenario.policy !== undefined) {
    const { policy: _policy, ...rest } = scenario;
    yield rest;
  }
  if (scenario.contextBudget !== undefined) {
    const { contextBudget: _budget, ...rest } = scenario;
    yield rest;
  }
  if (scenario.approver) yield { ...scenario, approver: false };
  if (scenario.parallel) yield { ...scenario, parallel: false };
  for (let index = 0; index < scenario.resumes.length; index++)
    yield {
      ...scenario,
      resumes: [...scenario.resumes.slice(0, index), ...scenario.resumes.slice(index + 1)],
    };
  for (let index = 0; index < scenario.answers.length && scenario.answers.length > 1; index++)
    yield {
      ...scenario,
      answers: [...scenario.answers.slice(0, index), ...scenario.answers.slice(index + 1)],
    };
}

/**
 * The smallest scenario that still fails, found greedily: each one-step
 * smaller version is tried, the first that still fails is kept, until none
 * does or `budget` trials are spent. Returns it with its failure.
 */
export async function shrinkScenario(
  failing: Scenario,
  failure: ConformanceFailure,
  trial: ScenarioTrial,
  budget = 150,
): Promise<{ scenario: Scenario; failure: ConformanceFailure }> {
  let scenario = failing;
  let last = failure;
  let trials = 0;
  for (let improved = true; improved && trials < budget; ) {
    improved = false;
    for (const candidate of smaller(scenario)) {
      if (++trials > budget) break;
      const found = await trial(candidate);
      if (found === undefined) continue;
      scenario = candidate;
      last = found;
      improved = true;
      break;
    }
  }
  return { scenario, failure: last };
}
