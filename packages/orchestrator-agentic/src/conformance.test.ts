import { orchestratorConformance } from '@agent-core/core/testing';
import { describe, test } from 'vitest';
import { agentic } from './index.js';

// The soak run (AGENT_CORE_SOAK=1) tries many more random scripts.
orchestratorConformance(() => agentic(), {
  test,
  describe,
  runs: process.env.AGENT_CORE_SOAK === '1' ? 3000 : 100,
});
