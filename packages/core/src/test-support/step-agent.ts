import { Agent, type AgentOptions } from '../index.js';
import { stepOrchestrator } from './step-orchestrator.js';

/**
 * The agent most of core's tests build: model `m` on the step loop, with `options` added (or
 * replacing either).
 */
export function stepAgent(options: Partial<AgentOptions> & Pick<AgentOptions, 'provider'>): Agent {
  return new Agent({ model: 'm', orchestrator: stepOrchestrator, ...options });
}
