import { registerToolPack } from '@agent-core/core';
import { type BasicToolsOptions, basicTools } from './basic-tools.js';

registerToolPack('basic', (options) => basicTools(options as BasicToolsOptions | undefined), {
  onDuplicate: 'keep',
});
