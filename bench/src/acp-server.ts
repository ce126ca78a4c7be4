// Workload 8's server: one agent served over ACP on this process's stdin and
// stdout, with the stamping model of `workloads/acp-transport.ts`.
import { serveAcp } from '@agent-core/acp';
import { MemorySessionStore } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { stampingModel } from './workloads/acp-transport.js';

const server = serveAcp({
  store: new MemorySessionStore(),
  policies: false,
  createAgent: () => ({ provider: stampingModel(), model: 'stamped', orchestrator: agentic() }),
});
await server.closed;
