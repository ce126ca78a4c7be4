import { providerConformance } from '@agent-core/core/testing';
import { anthropicWire, serveLocally } from '@agent-core/test-support';
import { describe, test } from 'vitest';
import { anthropic } from './index.js';

// Through the real SDK and real sockets, against the kit's backend speaking the Messages API.
providerConformance(({ baseURL, fetch }) => anthropic({ baseURL, fetch, apiKey: 'test-key' }), {
  test,
  describe,
  wire: anthropicWire,
  serve: serveLocally,
  model: 'claude-sonnet-4-6',
  capabilities: { thinking: true, cacheRead: true, cacheWrite: true },
});
