import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySessionStore, SessionManager, type SessionStore } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { FileSessionStore } from '@agent-core/store-file';
import { PostgresSessionStore } from '@agent-core/store-postgres';
import { packageVersion } from '../package-version.js';
import { benchDatabaseUrl } from '../postgres-server.js';
import { promptText, type RunOutcome, type Scenario } from '../scenario.js';
import { addTool, coreFramework, scriptedProvider } from './agent-core.js';
import type { Framework } from './framework.js';

// What the features cost when a run uses them: the agentic sequential contender with
// a policy whose approver allows every call, and run through a SessionManager over
// a memory store, over a file store and over a PostgreSQL store. (The otel rows are in agent-core-otel.ts.)

/** The policy row: every call is `ask`ed, and the approver allows it: the whole gate, per call. */
function policyFramework(): Framework {
  return coreFramework({
    id: 'core-policy',
    label: 'agent-core agentic sequential, policy ask + approver allow',
    orchestrator: () => agentic({ toolExecution: 'sequential' }),
    provider: 'scripted',
    agentOptions: { policy: () => 'ask', approve: () => 'allow' },
  });
}

let fileRoot: string | undefined;

/** One temporary folder per process for the file store, removed when the process exits. */
function fileStoreRoot(): string {
  if (fileRoot === undefined) {
    const root = mkdtempSync(join(tmpdir(), 'agent-core-bench-sessions-'));
    fileRoot = root;
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  }
  return fileRoot;
}

/**
 * A session row: each run is a new session of a fresh `SessionManager`, created and
 * prompted, every message and tool call written to the store as the run goes.
 */
function sessionFramework(id: string, label: string, store: () => SessionStore): Framework {
  return {
    id,
    label,
    version: `@agent-core/core ${packageVersion('@agent-core/core')}`,
    streams: true,
    multipleCalls: true,
    async run(scenario: Scenario): Promise<RunOutcome> {
      const manager = new SessionManager({
        store: store(),
        agentOptions: () => ({
          provider: scriptedProvider(scenario),
          model: 'scripted',
          tools: [addTool(scenario)],
          orchestrator: agentic({ toolExecution: 'sequential' }),
          limits: { maxTurns: scenario.steps + 1 },
        }),
      });
      const session = await manager.create();
      const run = session.prompt(promptText);
      let events = 0;
      if (scenario.iterate) for await (const _event of run) events++;
      const result = await run.result();
      if (result.terminateReason !== 'completed')
        throw new Error(`${id}: the run ended with ${result.terminateReason}: ${result.error?.message}`);
      return { history: result.messages, text: result.text, events, retained: { session, result } };
    },
  };
}

/** The contenders that measure features in use: a policy with an approver, and session stores. */
export function coreFeatureFrameworks(): Framework[] {
  let file: FileSessionStore | undefined;
  let postgres: PostgresSessionStore | undefined;
  return [
    policyFramework(),
    // A fresh memory store per session: the row measures the session, not a store holding every other one.
    sessionFramework(
      'core-session-memory',
      'agent-core SessionManager, MemorySessionStore',
      () => new MemorySessionStore(),
    ),
    sessionFramework('core-session-file', 'agent-core SessionManager, FileSessionStore (fsync)', () => {
      file ??= new FileSessionStore({ root: fileStoreRoot() });
      return file;
    }),
    // One store per process, in a schema of its own, on the server pnpm bench started (durable commits).
    sessionFramework('core-session-postgres', 'agent-core SessionManager, PostgresSessionStore', () => {
      postgres ??= new PostgresSessionStore({
        connectionString: benchDatabaseUrl(),
        schema: `bench_${process.pid}`,
      });
      return postgres;
    }),
  ];
}
