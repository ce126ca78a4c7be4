import { registerToolPack } from '@agent-core/core';
import type { FsToolsOptions } from './fs-tools-settings.js';
import { fsTools } from './fs-tools.js';

// Cheap on purpose: a factory in core's registry, no file system touched and no cwd read until the pack is built.
registerToolPack('fs', (options) => fsTools(options as FsToolsOptions | undefined), { onDuplicate: 'keep' });
