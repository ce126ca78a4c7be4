// Node-only parts of core, at `@agent-core/core/node`; the root entry never imports this.
export { loadPromptLayers } from './load-prompt-layers.js';
export type { PromptLayerFiles } from './load-prompt-layers.js';
