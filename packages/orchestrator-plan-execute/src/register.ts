import { registerOrchestrator } from '@agent-core/core';
import { type PlanExecuteOptions, planExecute } from './plan-execute.js';

// Importing this package makes `plan-execute` available by name; it never becomes the default.
registerOrchestrator('plan-execute', (options) => planExecute(options as PlanExecuteOptions | undefined), {
  onDuplicate: 'keep',
});
