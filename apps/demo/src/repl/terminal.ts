import { createInterface, type Interface } from 'node:readline';
import type { Ask } from '../approvals/inline-approver.js';

/**
 * Questions to the person at the terminal. In the REPL they go through its
 * own readline, so an answer is never taken for a steering line; elsewhere a
 * readline is opened for the one question. A question whose run is aborted
 * (Ctrl-C) is withdrawn and answers ''.
 */
export class Terminal {
  repl: Interface | undefined;

  readonly ask: Ask = (question, signal) => {
    if (signal?.aborted) return Promise.resolve('');
    const current = this.repl;
    const input = current ?? createInterface({ input: process.stdin, output: process.stderr });
    // A question's own readline takes the terminal's Ctrl-C: pass it on as the SIGINT that aborts the run.
    if (current === undefined) input.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
    return new Promise<string>((resolve) => {
      let settled = false;
      const done = (answer: string) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', withdrawn);
        input.off('close', ended);
        if (current === undefined) input.close();
        resolve(answer);
      };
      const withdrawn = () => {
        process.stdout.write('\n');
        done('');
      };
      // Input that ends before an answer (Ctrl-D, a closed pipe) answers ''.
      const ended = () => done('');
      signal?.addEventListener('abort', withdrawn, { once: true });
      input.once('close', ended);
      input.question(question, signal === undefined ? {} : { signal }, done);
    });
  };
}
