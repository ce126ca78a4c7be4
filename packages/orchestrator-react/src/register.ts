import { registerOrchestrator } from '@agent-core/core';
import { type ReactOptions, react } from './react.js';

// Importing this package makes `react` available by name; it never becomes the default.
registerOrchestrator('react', (options) => react(options as ReactOptions | undefined), {
  onDuplicate: 'keep',
});
