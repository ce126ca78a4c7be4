import { orchestratorConformance } from '@agent-core/core/testing';
import { agentic } from '@agent-core/orchestrator-agentic';
import { afterAll, describe, test } from 'vitest';
import { LoopStatistics } from './test-support/loop-statistics.js';
import { providerRequestProblems } from './test-support/request-builders.js';
import { propertyRuns, report } from '@agent-core/test-support';

// The default tool loop under the orchestrator kit's random scripts (sequential and parallel
// tools, provider failures, queued messages, aborts, policies, pauses resumed on the same agent or
// from stored JSON, small context windows), and one check of ours on top: the history every run
// leaves goes through the Anthropic, Chat Completions and Responses providers' real `stream()`
// and SDK, and each API would accept the body. The statistics say what the runs went through.
// react and plan-execute run the same kit in their own packages.

const statistics = new LoopStatistics();
afterAll(() => report('agentic under the orchestrator kit', statistics.toString()));

describe('agentic under the orchestrator kit, its histories sent through the real providers', () => {
  orchestratorConformance(() => agentic(), {
    test,
    runs: propertyRuns(50, 2000),
    async inspectRun({ label, agent, result, events }) {
      statistics.run(label.replace(/ \d+.*/, ''), result, events);
      if (label !== 'the last prompt') return;
      const tools = agent.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters as Record<string, unknown>,
      }));
      const problems = await providerRequestProblems(agent.messages, tools);
      if (problems.length > 0) throw new Error(`the history cannot be sent: ${problems.join('; ')}`);
    },
  });
});
