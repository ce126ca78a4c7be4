// The conformance kits under node:test, as a user without vitest runs them: `node --test` this file.
import { describe, test } from 'node:test';
import { providerErrorKindForStatus } from '@agent-core/core';
import { orchestratorConformance, providerConformance } from '@agent-core/core/testing';
import { agentic } from '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';

orchestratorConformance(() => agentic(), { test, describe, runs: 10 });

// The mock as a stub that acts out text, errors, a lost and a silent stream; it claims no tool
// calls, usage or Retry-After, so those checks are left out.
function turnFor(answer) {
  if (answer.type === 'status')
    return {
      error: {
        kind: answer.overflow ? 'context_overflow' : providerErrorKindForStatus(answer.status),
        status: answer.status,
      },
    };
  const text = answer.reply.parts.flatMap((part) => (part.type === 'text' ? part.pieces : [])).join('');
  if (answer.type === 'cut') return { text, error: { kind: 'network', afterChunks: 1 } };
  if (answer.type === 'stall') return { text, stallAfterChunks: 1 };
  return { text };
}

providerConformance(({ answer }) => mock({ turns: [turnFor(answer)], chunkSize: 4 }), {
  test,
  describe,
  capabilities: { toolCalls: false, usage: false, retryAfter: false },
});
