import { registerProvider } from '@agent-core/core';
import { anthropic } from './anthropic.js';
import type { AnthropicOptions } from './anthropic-options.js';

// Registering is cheap: a factory in core's registry, no client, no I/O, no
// environment read. 'keep' lets two copies of this package load side by side.
registerProvider('anthropic', (options) => anthropic(options as AnthropicOptions | undefined), {
  onDuplicate: 'keep',
});
