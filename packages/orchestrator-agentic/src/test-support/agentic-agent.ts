import { Agent, type AgentOptions } from '@agent-core/core';
import { agentic } from '../index.js';

/** The agent most of agentic's tests build: model `m` on a default `agentic()`, with `options` added (or replacing either). */
export function agenticAgent(options: Partial<AgentOptions> & Pick<AgentOptions, 'provider'>): Agent {
  return new Agent({ model: 'm', orchestrator: agentic(), ...options });
}
