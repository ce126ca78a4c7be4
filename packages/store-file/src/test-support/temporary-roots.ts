import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * Gives a test file a maker of store roots: each call makes a fresh temporary folder named with
 * `prefix`, removed after the test that made it.
 */
export function useTemporaryRoots(prefix: string): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    for (const folder of made.splice(0)) await rm(folder, { recursive: true, force: true });
  });
  return async () => {
    const folder = await mkdtemp(join(tmpdir(), prefix));
    made.push(folder);
    return folder;
  };
}
