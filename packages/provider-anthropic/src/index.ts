import './register.js';

export { anthropic } from './anthropic.js';
export type { AnthropicProvider } from './anthropic.js';
export type { AnthropicOptions, AnthropicThinking, PromptCachingOptions } from './anthropic-options.js';
export { anthropicModelInfo } from './model-info.js';
