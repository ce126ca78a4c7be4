// Holds the run lease of session <id> under <root> until killed: the lease tests' other process.
import { FileSessionStore } from '../../dist/index.js';

const [root, id, staleMs] = process.argv.slice(2);
const store = new FileSessionStore({ root, leaseStaleMs: Number(staleMs) });
await store.lease(id);
process.stdout.write('held\n');
// The heartbeat is unref()ed and never keeps a process alive: this timer does, until the test kills it.
setInterval(() => {}, 60_000);
