import { registerOrchestrator } from '@agent-core/core';
import { type AgenticOptions, agentic } from './agentic.js';

// Importing this package makes `agentic` available by name and the default orchestrator.
registerOrchestrator('agentic', (options) => agentic(options as AgenticOptions | undefined), {
  onDuplicate: 'keep',
  isDefault: true,
});
