export { startStudio } from './start-studio.js';
export type { StudioServer } from './start-studio.js';
export type { StudioOptions } from './studio-options.js';
export type { DecisionHandOff, HandOffDecisions } from './decision-hand-off.js';
