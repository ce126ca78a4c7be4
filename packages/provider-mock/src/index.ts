import './register.js';

export { mock } from './mock-provider.js';
export type { MockOptions, MockProvider } from './mock-provider.js';
export type { MockError, MockScript, MockTurn } from './mock-turn.js';
