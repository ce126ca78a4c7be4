import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Provider } from '@agent-core/core';
import { startLineProcess } from '@agent-core/test-support/line-process';

/**
 * Starts `__fixtures__/agent-child.mjs <root> first` and resolves once it runs session `killme` and
 * hangs in its second tool call; rejects if it exits before.
 */
export async function childInSlowCall(root: string): Promise<ChildProcess> {
  const started = startLineProcess(join(import.meta.dirname, '..', '__fixtures__', 'agent-child.mjs'), [
    root,
    'first',
  ]);
  while ((await started.next()) !== 'slow call started');
  return started.child;
}

/** A model that answers every prompt with the text `fine`: what a prompt after a repair runs into. */
export const fineProvider: Provider = {
  name: 'scripted',
  async *stream() {
    yield {
      type: 'done',
      message: { role: 'assistant', content: [{ type: 'text', text: 'fine' }], stopReason: 'end_turn' },
    };
  },
};
