// One process of the approval-across-a-restart test: `pause` runs to await_user and stores the session as
// JSON; `resume` loads it in a fresh process, approves the first call, denies the second and completes;
// `straight` runs the same conversation with an approver giving the same answers, never pausing.
// Each writes the requests the model received; each tool run appends a line to the count file.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, defineTool, policies } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';
import { z } from 'zod';

const [mode, toolExecution, stateFile, countFile, requestsFile] = process.argv.slice(2);
const denyReason = 'keep b as it is';

const writeFile = defineTool({
  name: 'write_file',
  description: 'writes a file',
  risk: 'write',
  parameters: z.object({ path: z.string(), content: z.string() }),
  execute: ({ path }) => {
    appendFileSync(countFile, `write_file ${path}\n`);
    return `wrote ${path}`;
  },
});

const firstTurn = {
  toolCalls: [
    { id: 'call_a', name: 'write_file', input: { path: 'a.txt', content: 'one' } },
    { id: 'call_b', name: 'write_file', input: { path: 'b.txt', content: 'two' } },
  ],
};
const secondTurn = { text: 'a.txt is written; b.txt was left alone.' };

const base = {
  model: 'mock-model',
  systemPrompt: 'You write files.',
  tools: [writeFile],
  policy: policies.standard,
  orchestrator: agentic({ toolExecution }),
};

let result;
let provider;
if (mode === 'pause') {
  provider = mock({ turns: [firstTurn] });
  const agent = new Agent({ ...base, provider });
  result = await agent.prompt('Write a.txt and b.txt').result();
  writeFileSync(
    stateFile,
    JSON.stringify({ messages: agent.messages, pendingApprovals: agent.pendingApprovals }),
  );
} else if (mode === 'resume') {
  provider = mock({ turns: [secondTurn] });
  const stored = JSON.parse(readFileSync(stateFile, 'utf8'));
  const agent = new Agent({
    ...base,
    provider,
    messages: stored.messages,
    pendingApprovals: stored.pendingApprovals,
  });
  const [first, second] = agent.pendingApprovals;
  result = await agent
    .resume({
      decisions: [
        { toolCallId: first.toolCallId, inputHash: first.inputHash, decision: 'allow' },
        { toolCallId: second.toolCallId, inputHash: second.inputHash, decision: 'deny', reason: denyReason },
      ],
    })
    .result();
} else {
  provider = mock({ turns: [firstTurn, secondTurn] });
  const agent = new Agent({
    ...base,
    provider,
    approve: (request) =>
      request.toolCallId === 'call_a' ? 'allow' : { decision: 'deny', reason: denyReason },
  });
  result = await agent.prompt('Write a.txt and b.txt').result();
}
writeFileSync(
  requestsFile,
  JSON.stringify({
    requests: provider.requests,
    terminateReason: result.terminateReason,
    pendingApprovals: result.pendingApprovals ?? [],
    messages: result.messages,
  }),
);
