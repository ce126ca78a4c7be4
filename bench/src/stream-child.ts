import { writeFileSync } from 'node:fs';
import { streamParsing } from './workloads/stream-parsing.js';

// Workload 7 in its own process. Usage: stream-child.js <out.json>
const out = process.argv[2];
if (out === undefined) throw new Error('usage: stream-child.js <out.json>');
writeFileSync(out, JSON.stringify(await streamParsing(), null, 2));
