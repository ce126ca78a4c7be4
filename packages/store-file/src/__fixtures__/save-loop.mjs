// Saves a growing session in a loop until killed: the SIGKILL crash-safety test's child.
import { silentLogger } from '@agent-core/core';
import { FileSessionStore } from '../../dist/index.js';

const [root, id] = process.argv.slice(2);
// Killed at random, its successors break the locks it leaves: expected here, so not reported.
const store = new FileSessionStore({ root, logger: silentLogger });
let state;
try {
  state = await store.load(id);
} catch {
  state = {
    id,
    schemaVersion: 1,
    version: 0,
    status: 'idle',
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    messages: [],
    metadata: { count: 0 },
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    pendingApprovals: [],
    lastSeq: 0,
  };
  state.version = (await store.save(state, { expectedVersion: 0 })).version;
}
process.stdout.write('ready\n');
for (;;) {
  const message = { role: 'user', content: `message ${state.messages.length} ${'x'.repeat(40)}` };
  state.messages.push(message);
  state.metadata.count = state.messages.length;
  state.version = (await store.save(state, { expectedVersion: state.version })).version;
  await store.append(id, [{ type: 'message', message }], { operationId: `op-${state.version}` });
  process.stdout.write('saved\n');
}
