// The studio as its own process, over the store named on the command line, deciding with the notes
// agent: `node studio-child.mjs <store> <notes file>`. Prints {"url"} once it listens; SIGTERM closes it.
import { startStudio } from '@agent-core/studio';
import { notesAgent, openStore } from './studio-agent.mjs';

const [where, notesFile] = process.argv.slice(2);
const store = openStore(where);
const studio = await startStudio({
  store,
  agentOptions: () => notesAgent(notesFile),
  pollIntervalMs: 200,
  listRefreshMs: 200,
  secrets: ['studio-test-secret-value'],
});
process.stdout.write(`${JSON.stringify({ url: studio.url, origin: studio.origin })}\n`);
process.on('SIGTERM', async () => {
  await studio.close();
  await store.close?.();
  process.exit(0);
});
