import { join } from 'node:path';
import { type LineProcess, startLineProcess } from '@agent-core/test-support/line-process';

export { killed } from '@agent-core/test-support/line-process';

/** Starts `node test-support/<script> ...args`, its stdout read line by line. Its stderr goes to the test's. */
export function startWorker(script: string, args: string[]): LineProcess {
  return startLineProcess(join(import.meta.dirname, script), args);
}
