// Every package installed and imported: all plugins registered, and an agent
// resolved by name from the registries, as the demo app does.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  SystemPromptBuilder,
  skillTools,
  getOrchestrator,
  getProvider,
  listOrchestrators,
  listProviders,
  listToolPacks,
  MemorySessionStore,
  ToolRegistry,
} from '@agent-core/core';
import { serveAcp } from '@agent-core/acp';
import { cassette } from '@agent-core/cassette';
import '@agent-core/orchestrator-agentic';
import '@agent-core/orchestrator-plan-execute';
import '@agent-core/orchestrator-react';
import '@agent-core/provider-anthropic';
import { mock } from '@agent-core/provider-mock';
import '@agent-core/provider-openai';
import '@agent-core/tools-basic';
import '@agent-core/tools-fs';
import '@agent-core/tools-mcp';
import '@agent-core/tools-shell';
import { PostgresSessionStore } from '@agent-core/store-postgres';
import { discoverSkills } from '@agent-core/skills';
import { startStudio } from '@agent-core/studio';
import { RunQueue } from '@agent-core/workers';

// A store of sessions in PostgreSQL is made without connecting (nothing listens on port 9), and never names the password.
const postgres = new PostgresSessionStore({ connectionString: 'postgres://agent:secret@127.0.0.1:9/agents' });
assert.equal(postgres.where, 'postgres://agent@127.0.0.1:9/agents (schema public)');
// So is a run queue: it loads neither its driver nor graphile-worker until first used.
const queue = new RunQueue({
  connectionString: 'postgres://agent:secret@127.0.0.1:9/agents',
  store: postgres,
});
assert.equal(queue.where, 'postgres://agent@127.0.0.1:9/agents (schema agent_core_workers)');
await queue.close();
await postgres.close();

// The studio serves its page from the package (built into dist/page/), on 127.0.0.1, only to the token's holder.
const studio = await startStudio({ store: new MemorySessionStore() });
assert.match(studio.url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
assert.equal((await fetch(`${studio.origin}/`)).status, 401);
const signIn = await fetch(studio.url, { redirect: 'manual' });
assert.equal(signIn.status, 303);
const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
const page = await fetch(`${studio.origin}/app.js`, { headers: { cookie } });
assert.equal(page.status, 200);
assert.ok((await page.text()).length > 10_000, 'the studio page bundle is in the package');
await studio.close();

// Importing the ACP server registers nothing and starts nothing: it serves only when called.
assert.equal(typeof serveAcp, 'function');
const sorted = (names: string[]) => [...names].sort();
assert.deepEqual(sorted(listProviders()), ['anthropic', 'mock', 'openai']);
assert.deepEqual(sorted(listOrchestrators()), ['agentic', 'plan-execute', 'react']);
assert.deepEqual(sorted(listToolPacks()), ['basic', 'fs', 'mcp', 'shell']);

const root = mkdtempSync(join(tmpdir(), 'pack-check-all-'));
writeFileSync(join(root, 'note.txt'), 'remember the milk\n');
// A project skill, discovered and offered through core's skill tools.
mkdirSync(join(root, '.agents', 'skills', 'greeting'), { recursive: true });
writeFileSync(
  join(root, '.agents', 'skills', 'greeting', 'SKILL.md'),
  '---\nname: greeting\ndescription: Greets people. Use when asked to say hello.\n---\nSay hello warmly.\n',
);
const skills = await discoverSkills({ project: root, user: false });
assert.deepEqual(skills.problems, []);
assert.deepEqual(
  skills.skills.map((skill) => skill.name),
  ['greeting'],
);
const tools = [
  ...new ToolRegistry().resolvePacks(['basic', 'fs', 'shell'], {
    fs: { root },
    shell: { cwd: root },
  }),
  ...skillTools(skills.skills),
];
// Building providers by name reads no key and makes no request.
assert.equal(getProvider('anthropic', { apiKey: 'unused' }).name, 'anthropic');
assert.equal(getProvider('openai', { apiKey: 'unused' }).name, 'openai');

const provider = mock({
  turns: [
    {
      toolCalls: [
        { name: 'calculator', input: { expression: '15 * 3' } },
        { name: 'read_file', input: { path: 'note.txt' } },
        { name: 'shell', input: { command: 'echo hi' } },
        { name: 'load_skill', input: { name: 'greeting' } },
      ],
    },
    { text: 'All done.' },
  ],
});
const agent = new Agent({
  provider,
  model: 'mock',
  tools,
  orchestrator: getOrchestrator('agentic'),
  systemPrompt: new SystemPromptBuilder({ skills: skills.skills }).build,
});
const result = await agent.prompt('Use every tool.').result();
assert.equal(result.terminateReason, 'completed', result.error?.message);
assert.deepEqual(
  result.toolCalls.map((call) => [call.name, call.isError]),
  [
    ['calculator', false],
    ['read_file', false],
    ['shell', false],
    ['load_skill', false],
  ],
);
assert.match(String(result.toolCalls[3]?.result), /Say hello warmly/);

// A run recorded into memory, then replayed from its recording: the cassette answers, no model is asked.
const recorder = await cassette({
  cassette: { entries: [] },
  provider: mock({ turns: [{ text: 'Recorded.' }] }),
  mode: 'record',
});
await new Agent({ provider: recorder, model: 'mock', orchestrator: getOrchestrator('agentic') })
  .prompt('Hi')
  .result();
const player = await cassette({ cassette: recorder.recorded() });
const replayed = await new Agent({
  provider: player,
  model: 'mock',
  orchestrator: getOrchestrator('agentic'),
})
  .prompt('Hi')
  .result();
assert.equal(replayed.text, 'Recorded.', replayed.error?.message);
console.log(JSON.stringify({ text: result.text, tools: tools.map((tool) => tool.name) }));
