// Core, the Anthropic provider and the file-system tools, with the user's own
// loop (no orchestrator package installed). The model is a local server that
// speaks the Anthropic streaming format, reached through the real SDK.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  listOrchestrators,
  listProviders,
  listToolPacks,
  type Orchestrator,
  toolCallsOf,
} from '@agent-core/core';
import { anthropic } from '@agent-core/provider-anthropic';
import { fsTools } from '@agent-core/tools-fs';

assert.deepEqual([listProviders(), listOrchestrators(), listToolPacks()], [['anthropic'], [], ['fs']]);

const loop: Orchestrator = {
  name: 'my-loop',
  async run(context) {
    for (;;) {
      const stop = context.nextTurn();
      if (stop !== undefined) return { reason: stop };
      const response = await context.callModel();
      if (!response.ok) return { reason: response.reason, error: response.error };
      const calls = toolCallsOf(response.message);
      for (const call of calls) await context.executeTool(call);
      context.endTurn(response.message);
      if (calls.length === 0) return { reason: 'completed' };
    }
  },
};

const root = mkdtempSync(join(tmpdir(), 'pack-check-fs-'));
writeFileSync(join(root, 'note.txt'), 'remember the milk\n');
const provider = anthropic({ apiKey: 'local-test-key', baseURL: process.argv[2] });
const agent = new Agent({ provider, model: 'claude-local', tools: fsTools({ root }), orchestrator: loop });

const result = await agent.prompt('call read_file {"path": "note.txt"}').result();
assert.equal(result.terminateReason, 'completed', result.error?.message);
assert.deepEqual(
  result.toolCalls.map((call) => [call.name, call.isError]),
  [['read_file', false]],
);
assert.match(result.text, /^Done: .*remember the milk/s);
console.log(JSON.stringify({ text: result.text, turns: result.turns }));
