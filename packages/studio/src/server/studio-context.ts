import type { Logger, SessionStore } from '@agent-core/core';
import type { LiveFeeds } from './live/live-feeds.js';
import type { StudioRuns } from './runs/studio-runs.js';
import type { StudioAccess } from './security/studio-access.js';
import type { SessionCosts } from './sessions/session-costs.js';
import type { SummaryIndex } from './sessions/summary-index.js';
import type { Redactor } from './view/redactor.js';

/** The page's files, read once when the studio starts. */
export interface PageAssets {
  script: string;
  style: string;
}

/** Everything a studio's routes share. */
export interface StudioContext {
  store: SessionStore;
  index: SummaryIndex;
  costs: SessionCosts;
  runs: StudioRuns;
  feeds: LiveFeeds;
  access: StudioAccess;
  redactor: Redactor;
  logger: Logger;
  assets: PageAssets;
  /** `Host` header values answered, filled in once the port is known. */
  hosts: Set<string>;
  pollIntervalMs: number;
}
