import { Agent, type AgentOptions } from '@agent-core/core';
import { planExecute } from '../index.js';

/** The agent most of plan-execute's tests build: model `m` on a default `planExecute()`, with `options` added (or replacing either). */
export function planExecuteAgent(options: Partial<AgentOptions> & Pick<AgentOptions, 'provider'>): Agent {
  return new Agent({ model: 'm', orchestrator: planExecute(), ...options });
}
