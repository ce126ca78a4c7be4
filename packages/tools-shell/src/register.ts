import { registerToolPack } from '@agent-core/core';
import { type ShellToolOptions, shellTool } from './shell-tool.js';

// Cheap on purpose: a factory in core's registry; no cwd read and no process started until the pack is built.
registerToolPack('shell', (options) => [shellTool(options as ShellToolOptions | undefined)], {
  onDuplicate: 'keep',
});
