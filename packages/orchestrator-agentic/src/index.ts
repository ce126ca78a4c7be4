import './register.js';

export { agentic } from './agentic.js';
export type { AgenticOptions } from './agentic.js';
