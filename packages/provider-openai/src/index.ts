import './register.js';

export { openai } from './openai.js';
export type { OpenAIProvider } from './openai.js';
export type { OpenAIApi, OpenAIOptions, OpenAIReasoningEffort } from './openai-options.js';
export { openaiModelInfo } from './model-info.js';
