import { type AgentEvent, ConfigError, type Logger } from '@agent-core/core';
import type { QueuedRun } from '@agent-core/workers';
import { resolveSettings } from '../agent-settings.js';
import type { CliConfig } from '../config/load-config.js';
import { maskSecrets } from '../config/mask-secrets.js';
import { exitCodes } from '../exit-codes.js';
import { type MadeAgentOptions, makeAgentOptions } from '../make-agent/make-agent-options.js';
import type { OutputStream } from '../output/terminal-style.js';
import { cliSession } from '../sessions/cli-session.js';
import { queueSchema } from '../sessions/open-queue.js';
import { openStore } from '../sessions/open-store.js';

/** Where the worker writes: a line per run on `out` (or its events with `--json`), notices on `errors`. */
export interface WorkerIo {
  out: OutputStream;
  errors: OutputStream;
  json: boolean;
  /** Resolves when the process is asked to stop (SIGTERM, Ctrl-C); a second ask calls `force`. */
  stopRequested(force: () => void): Promise<string>;
}

/**
 * `agent-core worker`: serves the run queue of the configured `postgres://`
 * store with the agent every command makes (`makeAgentOptions`, the
 * configuration as `run` reads it), until SIGTERM or Ctrl-C; then it takes no
 * new run, lets the runs in flight finish for up to `[worker] drain_ms`, and
 * hands the rest on to other workers. Runs that need approval pause (no one
 * is asked here) and wait for `agent-core approve` from anywhere.
 */
export async function workerCommand(
  config: CliConfig,
  loggers: { runLogger: Logger | undefined; storeLogger: Logger },
  io: WorkerIo,
): Promise<number> {
  if (!/^postgres(ql)?:\/\//i.test(config.store))
    throw new ConfigError(
      `agent-core worker serves the run queue of a postgres:// store that every worker and every enqueuing command share, and the store is ${config.store}: pass --store postgres://... (or set store = "postgres://..." in the config). A folder store belongs to one machine.`,
    );
  const entry = config.values.worker ?? {};
  const leaseDurationMs = entry.lease_ms ?? 30_000;
  const concurrency = entry.concurrency ?? 4;
  const warn = (message: string) => io.errors.write(`agent-core: ${maskSecrets(message, config.secrets)}\n`);
  // The sessions' leases last as long as the worker's, so a dead worker's runs move on together.
  const store = await openStore(config.store, loggers.storeLogger, { leaseDurationMs });
  const made = new Map<string, MadeAgentOptions>();
  const settings = await resolveSettings(config, {
    ...(loggers.runLogger === undefined ? {} : { logger: loggers.runLogger }),
    warn,
  });
  try {
    if (settings.provider.notice !== undefined) io.errors.write(`${settings.provider.notice}\n`);
    const { RunWorker } = await import('@agent-core/workers');
    const worker = new RunWorker({
      connectionString: config.store,
      schema: queueSchema(config),
      store: store.store,
      concurrency,
      leaseDurationMs,
      logger: loggers.storeLogger,
      // The agent `run` would make for the session: its folder and packs from its metadata, the configuration for the rest.
      agentOptions: async ({ id, metadata }) => {
        const agent = await makeAgentOptions(settings, cliSession(settings, metadata));
        await made.get(id)?.close();
        made.set(id, agent);
        return agent.options;
      },
    });
    worker.subscribe(io.json ? jsonLines(io.out, config.secrets) : runLines(io.out));
    await worker.start();
    const drainMs = entry.drain_ms ?? 30_000;
    io.errors.write(
      `agent-core: worker ${worker.id} serves ${store.label} (schema ${queueSchema(config)}), ${concurrency} run${concurrency === 1 ? '' : 's'} at once; SIGTERM or Ctrl-C stops it, letting its runs finish for up to ${drainMs / 1000} s\n`,
    );
    const signal = await io.stopRequested(() => {
      io.errors.write(
        'agent-core: stopped at once; the runs in flight go to other workers once this one’s lease lapses\n',
      );
      process.exit(exitCodes.interrupted);
    });
    io.errors.write(`agent-core: ${signal}: taking no new run; ${worker.running} in flight\n`);
    const { handedOn } = await worker.stop({ deadlineMs: drainMs });
    io.errors.write(
      `agent-core: worker stopped${handedOn === 0 ? '' : `; ${handedOn} run${handedOn === 1 ? '' : 's'} handed on to other workers`}\n`,
    );
    return exitCodes.completed;
  } finally {
    for (const agent of made.values()) await agent.close();
    await settings.close();
    await store.close();
  }
}

/** A line when a run starts and one when it ends, with how: what a person watching a worker wants. */
function runLines(out: OutputStream): (event: AgentEvent, run: QueuedRun) => void {
  return (event, run) => {
    const where = `session ${run.sessionId} operation ${run.operationId}`;
    if (event.type === 'agent_start') out.write(`${where}: started\n`);
    if (event.type !== 'agent_end') return;
    const { result } = event;
    const pause =
      result.terminateReason === 'await_user'
        ? ` (waits for approval: agent-core approve ${run.sessionId})`
        : result.error === undefined
          ? ''
          : ` (${result.error.message})`;
    out.write(`${where}: ${result.terminateReason}${pause}\n`);
  };
}

/** Every event as one JSON line, with its session and operation. */
function jsonLines(
  out: OutputStream,
  secrets: readonly string[],
): (event: AgentEvent, run: QueuedRun) => void {
  return (event, run) => out.write(`${maskSecrets(JSON.stringify({ ...run, ...event }), secrets)}\n`);
}
