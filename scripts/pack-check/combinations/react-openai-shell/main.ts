// Core, the ReAct orchestrator, the OpenAI provider and the shell tool. The
// model is a local server that speaks the Chat Completions streaming format,
// reached through the real SDK, and answers in ReAct text.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, listOrchestrators, listProviders, listToolPacks } from '@agent-core/core';
import { react } from '@agent-core/orchestrator-react';
import { openai } from '@agent-core/provider-openai';
import { shellTool } from '@agent-core/tools-shell';

assert.deepEqual([listProviders(), listOrchestrators(), listToolPacks()], [['openai'], ['react'], ['shell']]);

const cwd = mkdtempSync(join(tmpdir(), 'pack-check-shell-'));
const provider = openai({
  apiKey: 'local-test-key',
  baseURL: process.argv[2],
  api: 'chat',
});
const agent = new Agent({ provider, model: 'gpt-local', tools: [shellTool({ cwd })], orchestrator: react() });

const result = await agent.prompt('react shell {"command": "echo hello-from-shell"}').result();
assert.equal(result.terminateReason, 'completed', result.error?.message);
assert.deepEqual(
  result.toolCalls.map((call) => [call.name, call.isError]),
  [['shell', false]],
);
assert.match(result.text, /^Done: .*hello-from-shell/s);
console.log(JSON.stringify({ text: result.text, turns: result.turns }));
