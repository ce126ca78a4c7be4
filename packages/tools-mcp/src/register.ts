import { registerToolPack } from '@agent-core/core';
import { mcpToolPack } from './mcp-tool-pack.js';

// Cheap by design: a factory in a map, no server started, no I/O.
registerToolPack('mcp', mcpToolPack, { onDuplicate: 'keep' });
