import { registerProvider } from '@agent-core/core';
import { openai } from './openai.js';
import type { OpenAIOptions } from './openai-options.js';

// Registers the factory only: no client is built and no environment is read here.
registerProvider('openai', (options) => openai(options as OpenAIOptions | undefined), {
  onDuplicate: 'keep',
});
