import { silentLogger } from '@agent-core/core';
import { afterEach } from 'vitest';
import { startStudio, type StudioServer } from '../start-studio.js';
import type { StudioOptions } from '../studio-options.js';

/**
 * Starts studios for a test file's tests, quiet (no logger output unless the
 * options give one), and closes every one after each test.
 */
export function useTestStudios(): (options: StudioOptions) => Promise<StudioServer> {
  const started: StudioServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((studio) => studio.close()));
  });
  return async (options) => {
    const studio = await startStudio({ logger: silentLogger, ...options });
    started.push(studio);
    return studio;
  };
}
