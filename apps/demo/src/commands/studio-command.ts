import { spawn } from 'node:child_process';
import type { Logger } from '@agent-core/core';
import { startStudio } from '@agent-core/studio';
import { resolveSettings } from '../agent-settings.js';
import type { CliConfig } from '../config/load-config.js';
import { maskSecrets } from '../config/mask-secrets.js';
import { exitCodes } from '../exit-codes.js';
import { type MadeAgentOptions, makeAgentOptions } from '../make-agent/make-agent-options.js';
import { cliSession } from '../sessions/cli-session.js';
import type { OpenedStore } from '../sessions/open-store.js';
import { studioHandOff } from './studio-hand-off.js';

/** What `agent-core studio` takes from its command line. */
export interface StudioCommandOptions {
  /** The port; 0 takes a free one. */
  port: number;
  /** The address to listen on; default 127.0.0.1. */
  host: string | undefined;
  /** Open the printed address in the default browser. */
  open: boolean;
}

/**
 * `studio`: a local web app over the configured store (its sessions, runs as
 * timelines, the approvals inbox, prompts), until Ctrl-C. A call decided in
 * the page resumes in this process with the agent `makeAgentOptions` makes
 * for the session, as `approve` would, so it runs exactly once whoever
 * decides; for a session the workers serve, the decision enqueues the resume
 * for them instead, as `approve` does. Prints the address with its token;
 * `--open` opens it.
 */
export async function studioCommand(
  config: CliConfig,
  store: OpenedStore,
  options: StudioCommandOptions,
  loggers: { runLogger: Logger | undefined; storeLogger: Logger },
): Promise<number> {
  const warn = (message: string) =>
    process.stderr.write(`agent-core: ${maskSecrets(message, config.secrets)}\n`);
  // No approver: a call the policy asks about pauses its run and waits in the inbox, as a headless run's would.
  const settings = await resolveSettings(config, {
    ...(loggers.runLogger === undefined ? {} : { logger: loggers.runLogger }),
    warn,
  });
  const made = new Map<string, MadeAgentOptions>();
  const handOff = studioHandOff(config, store, loggers.storeLogger);
  const studio = await startStudio({
    store: store.store,
    agentOptions: async ({ id, metadata }) => {
      const agent = await makeAgentOptions(settings, cliSession(settings, metadata));
      await made.get(id)?.close();
      made.set(id, agent);
      return agent.options;
    },
    ...(handOff === undefined ? {} : { handOffDecisions: handOff.handOffDecisions }),
    port: options.port,
    ...(options.host === undefined ? {} : { host: options.host }),
    secrets: config.secrets,
    logger: loggers.storeLogger,
  }).catch(async (error: unknown) => {
    await settings.close();
    throw error;
  });
  if (settings.provider.notice !== undefined) process.stderr.write(`${settings.provider.notice}\n`);
  process.stdout.write(`agent-core studio: ${studio.url}\n`);
  process.stderr.write(
    `agent-core: the studio shows the sessions in ${store.label}; only a browser that opens the address above gets in. Ctrl-C stops it.\n`,
  );
  if (options.host !== undefined && !['127.0.0.1', 'localhost', '::1'].includes(options.host))
    warn(
      `the studio listens on ${options.host}, reachable from other machines over plain HTTP: share its address only over a channel you trust.`,
    );
  if (options.open) openInBrowser(studio.url, warn);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await studio.close();
  await handOff?.close();
  await Promise.all([...made.values()].map((agent) => agent.close()));
  await settings.close();
  // Stopping is how a studio ends: not an interrupted run.
  return exitCodes.completed;
}

/**
 * Opens `url` with the command in `BROWSER` if set (as many tools honour),
 * else the system's opener; a failure is a note, never the studio's end.
 */
function openInBrowser(url: string, warn: (message: string) => void): void {
  const browser = process.env.BROWSER;
  const [command, args] =
    browser !== undefined && browser !== ''
      ? [browser, [url]]
      : process.platform === 'darwin'
        ? ['open', [url]]
        : process.platform === 'win32'
          ? ['cmd', ['/c', 'start', '', url]]
          : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', () =>
      warn(`could not open a browser (${command}): open the address above yourself.`),
    );
    child.unref();
  } catch {
    warn(`could not open a browser (${command}): open the address above yourself.`);
  }
}
