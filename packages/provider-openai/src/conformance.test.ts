import { providerConformance } from '@agent-core/core/testing';
import { chatWire, responsesWire, serveLocally } from '@agent-core/test-support';
import { describe, test } from 'vitest';
import { openai } from './index.js';

// Through the real SDK and real sockets, against the kit's backend speaking each API.
describe('Chat Completions', () => {
  providerConformance(
    ({ baseURL, fetch }) => openai({ baseURL: `${baseURL}/v1`, fetch, apiKey: 'test-key' }),
    {
      test,
      wire: chatWire,
      serve: serveLocally,
      model: 'gpt-4o-mini',
      capabilities: { cacheRead: true },
    },
  );
});

describe('Responses', () => {
  providerConformance(
    ({ baseURL, fetch }) => openai({ baseURL: `${baseURL}/v1`, fetch, apiKey: 'test-key', api: 'responses' }),
    {
      test,
      wire: responsesWire,
      serve: serveLocally,
      model: 'gpt-4.1-mini',
      capabilities: { cacheRead: true },
    },
  );
});
