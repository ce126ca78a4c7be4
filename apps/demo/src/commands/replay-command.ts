import { type SessionCassette, sessionCassette } from '@agent-core/cassette';
import { AgentError, ConfigError } from '@agent-core/core';
import type { AgentSettings } from '../agent-settings.js';
import { maskSecrets } from '../config/mask-secrets.js';
import { exitCodes } from '../exit-codes.js';
import type { OutputStream, Style } from '../output/terminal-style.js';
import { rerecordSession } from '../replay/rerecord-session.js';
import { renderReplay } from '../replay/replay-report.js';
import { replaySession } from '../replay/replay-session.js';
import type { OpenedStore } from '../sessions/open-store.js';

/** What `agent-core replay` was asked. */
export interface ReplayRequest {
  id: string;
  update: boolean;
  tools: 'real' | 'recorded';
  json: boolean;
}

/**
 * `agent-core replay SESSION`: re-runs a stored session's prompts offline
 * with today's prompt, tools and orchestrator against its recorded replies,
 * and says whether the run reproduced (exit 0) or where it diverged (exit 1).
 * `--update` sends the prompts to the live model instead, into a new session.
 * The stored session is only read; a damaged one is replayed up to its damage,
 * which is named on stderr. An id never stored is a usage error (exit 2).
 */
export async function replayCommand(
  request: ReplayRequest,
  store: OpenedStore,
  settings: AgentSettings,
  io: { out: OutputStream; errors: OutputStream; style: Style; errorStyle: Style },
): Promise<number> {
  const { id } = request;
  let recorded: SessionCassette;
  try {
    recorded = await sessionCassette(store.store, id);
  } catch (error) {
    // By code, so the check holds across duplicate copies of core.
    if (!AgentError.isInstance(error) || error.code !== 'session_not_found') throw error;
    throw new ConfigError(
      `No session '${id}' is stored in ${store.label}. 'agent-core sessions list' shows the stored sessions.`,
      { cause: error },
    );
  }
  // A file store refuses a log past its damage: a repaired copy gives what comes before it.
  if (recorded.damage !== undefined && store.kind === 'file') {
    const { salvageFileSession } = await import('../replay/salvage-file-session.js');
    recorded = (await salvageFileSession(store.label, id, recorded)) ?? recorded;
  }
  const metadata = await store.store.load(id).then(
    (state) => state.metadata,
    () => ({}),
  );
  if (recorded.damage !== undefined)
    io.errors.write(
      maskSecrets(
        `${io.errorStyle.yellow(`agent-core: session ${id} is damaged at ${recorded.damage.where}`)}: ${recorded.damage.message} Replaying the ${recorded.messages.length} messages before it.\n`,
        settings.config.secrets,
      ),
    );
  if (!request.json)
    io.errors.write(
      `${io.errorStyle.dim(
        request.update
          ? `agent-core: re-recording session ${id} (${recorded.messages.length} messages) from ${settings.provider.name} ${settings.provider.model}, with today's prompt and orchestrator; tools ${request.tools === 'recorded' ? 'answer from the session' : 'run for real'}`
          : `agent-core: replaying session ${id} (${recorded.messages.length} messages, ${recorded.cassette.entries.length} model calls) offline with today's prompt, tools and orchestrator; tools ${request.tools === 'recorded' ? 'answer from the session' : 'run for real'}`,
      )}\n`,
    );
  if (request.update && settings.provider.notice !== undefined)
    io.errors.write(`${settings.provider.notice}\n`);
  const input = { id, recorded, metadata, settings, tools: request.tools };
  const outcome = request.update
    ? await rerecordSession({ ...input, store: store.store })
    : await replaySession(input);
  // Prompts, tool results and diffs are the session's own text: the configuration's secrets are masked out of them.
  const report = request.json ? `${JSON.stringify(outcome)}\n` : renderReplay(outcome, io.style);
  io.out.write(maskSecrets(report, settings.config.secrets));
  return outcome.reproduced ? exitCodes.completed : exitCodes.failed;
}
