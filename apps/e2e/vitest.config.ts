import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The provider fault cases run concurrently (each with its own server and agent): most of a
    // stall case is waiting for the idle timeout, which many cases can do at once.
    maxConcurrency: 24,
  },
});
