import { registerProvider } from '@agent-core/core';
import { mock, type MockOptions } from './mock-provider.js';

// Registering stores a factory; no provider is built until someone asks for one.
registerProvider('mock', (options) => mock((options ?? { turns: [] }) as unknown as MockOptions), {
  onDuplicate: 'keep',
});
