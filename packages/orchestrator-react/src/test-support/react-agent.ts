import { Agent, type AgentOptions } from '@agent-core/core';
import { react } from '../index.js';

/** The agent most of react's tests build: model `m` on a default `react()`, with `options` added (or replacing either). */
export function reactAgent(options: Partial<AgentOptions> & Pick<AgentOptions, 'provider'>): Agent {
  return new Agent({ model: 'm', orchestrator: react(), ...options });
}
