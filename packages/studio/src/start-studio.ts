import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { ConfigError, stderrLogger } from '@agent-core/core';
import { LiveFeeds } from './server/live/live-feeds.js';
import { StudioRuns } from './server/runs/studio-runs.js';
import { allowedHosts, isLoopback } from './server/security/allowed-hosts.js';
import { StudioAccess } from './server/security/studio-access.js';
import { SessionCosts } from './server/sessions/session-costs.js';
import { SummaryIndex } from './server/sessions/summary-index.js';
import { studioApp } from './server/studio-app.js';
import type { PageAssets, StudioContext } from './server/studio-context.js';
import { Redactor } from './server/view/redactor.js';
import { checkStudioOptions, type StudioOptions } from './studio-options.js';

/** A running studio. */
export interface StudioServer {
  /** The address to open, with the token: print it, or open it for the user. */
  readonly url: string;
  /** The address without the token. */
  readonly origin: string;
  readonly host: string;
  readonly port: number;
  /** Stops listening, ends the live streams and cancels the runs the studio resumed (their histories stay valid). */
  close(): Promise<void>;
}

/**
 * Starts a studio over a session store: a local web app that lists the
 * sessions, shows each conversation and each run as a timeline, and decides
 * the calls waiting for approval. It listens on 127.0.0.1 unless told
 * otherwise, and only a browser that opened `url` (with its token) gets in.
 *
 * @example
 * const studio = await startStudio({ store: new FileSessionStore({ root }), agentOptions });
 * console.log(`The studio is at ${studio.url}`);
 */
export async function startStudio(options: StudioOptions): Promise<StudioServer> {
  checkStudioOptions(options);
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? stderrLogger('warn');
  const redactor = new Redactor(options.secrets);
  const index = new SummaryIndex(options.store, {
    minimumAgeMs: options.listRefreshMs ?? 2_000,
    logger,
    redactor,
  });
  const feeds = new LiveFeeds(() => void index.refresh());
  const studio: StudioContext = {
    store: options.store,
    index,
    costs: new SessionCosts(options.store),
    runs: new StudioRuns(options.store, options.agentOptions, {
      redactor,
      logger,
      activity: feeds,
      ...(options.handOffDecisions === undefined ? {} : { handOff: options.handOffDecisions }),
    }),
    feeds,
    access: new StudioAccess(options.token),
    redactor,
    logger,
    assets: await readPageAssets(),
    hosts: new Set(),
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
  };
  const app = studioApp(studio);
  const server = await listen(app.fetch, host, options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  for (const allowed of allowedHosts(host, port, options.allowedHosts ?? [])) studio.hosts.add(allowed);
  studio.access.listeningOn(port);
  if (!isLoopback(host))
    logger.warn('the studio listens beyond this machine, over plain HTTP; only its token keeps others out', {
      host,
      port,
    });
  // The list is read once now, so the first page a browser asks for is ready.
  void index.refresh();
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const origin = `http://${shownHost}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/?token=${studio.access.token}`,
    origin,
    host,
    port,
    close() {
      closing ??= (async () => {
        await studio.runs.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Live streams never end by themselves: end their connections so close() returns.
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
      })();
      return closing;
    },
  };
}

function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  host: string,
  port: number,
): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: host, port }, () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigError(`Port ${port} on ${host} is in use: choose another port, or 0 for a free one.`, {
              cause: error,
            })
          : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
            ? new ConfigError(
                `The studio cannot listen on '${host}': it is not an address of this machine.`,
                { cause: error },
              )
            : error,
      );
    });
  });
}

/** The page's bundle and style, built into `dist/page/` by the package's build. */
async function readPageAssets(): Promise<PageAssets> {
  // From dist/ the page is beside this file; tests that run the sources read the built one.
  for (const folder of ['./page/', '../dist/page/']) {
    try {
      const base = new URL(folder, import.meta.url);
      const [script, style] = await Promise.all([
        readFile(new URL('app.js', base), 'utf8'),
        readFile(new URL('app.css', base), 'utf8'),
      ]);
      return { script, style };
    } catch {
      // Not there: the next place.
    }
  }
  throw new ConfigError(
    "The studio's page is not built (dist/page/app.js is missing): run the package's build (pnpm --filter @agent-core/studio build).",
  );
}
