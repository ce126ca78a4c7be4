import { checkValidHistory } from '@agent-core/core/testing';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentEvent,
  isSkillEvent,
  preApproveSkillTools,
  SessionManager,
  SystemPromptBuilder,
  skillTools,
  type ToolResultMessage,
} from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { openai } from '@agent-core/provider-openai';
import { discoverSkills, formatSkillProblem } from '@agent-core/skills';
import { FileSessionStore } from '@agent-core/store-file';
import { shellTool } from '@agent-core/tools-shell';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  chatReply,
  type ScriptedSseServer,
  startScriptedSseServer,
} from './test-support/scripted-sse-server.js';

// Skills discovered from folders, used through the real OpenAI SDK against a local Chat Completions
// server that records every request: what the model is sent up front, after it loads a skill, after
// it reads a file; escapes refused; the project's skill over the user's; broken skills reported.

let root: string;
let server: ScriptedSseServer | undefined;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'agent-core-e2e-skills-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(root, { recursive: true, force: true });
});

async function write(path: string, text: string): Promise<void> {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), text);
}

const sharedSkills = join(
  new URL('../../../', import.meta.url).pathname,
  '..',
  'shared',
  'fixtures',
  'skills',
);
const realSkills =
  process.env.AGENT_CORE_SHARED_DIR === undefined
    ? sharedSkills
    : join(process.env.AGENT_CORE_SHARED_DIR, 'fixtures', 'skills');

it('an OpenAI-compatible model sees names up front, loads a body and a file on request, and runs a pre-approved tool', async () => {
  await mkdir(join(root, 'project', '.git'), { recursive: true });
  await write(
    'project/.agents/skills/release/SKILL.md',
    '---\nname: release\ndescription: Tags a release. Use when the user asks to release or tag a version.\nallowed-tools: shell\n---\n\nFollow references/steps.md exactly.\n',
  );
  await write(
    'project/.agents/skills/release/references/steps.md',
    'Step 1: run `echo tagged` with the shell tool.\n',
  );
  await write('project/.agents/skills/release/scripts/tag.sh', '#!/bin/sh\ntouch RAN\n');
  await write('project/.claude/skills/broken/SKILL.md', '# A skill without frontmatter\n');
  await write(
    'user/release/SKILL.md',
    "---\nname: release\ndescription: The user's older release skill.\n---\nUser release steps.\n",
  );
  await write(
    'user/greet/SKILL.md',
    '---\nname: greet\ndescription: Greets people. Use when asked to say hello.\n---\nSay hello.\n',
  );
  const withReal = existsSync(realSkills);
  if (!withReal)
    console.info(
      'skipped the real skills: ../shared/fixtures/skills is not beside the repository (CI has it)',
    );

  const found = await discoverSkills({
    project: join(root, 'project'),
    folders: withReal ? [realSkills] : [],
    user: join(root, 'user'),
  });
  expect(found.problems.map(formatSkillProblem)).toEqual([
    `${join(root, 'project/.claude/skills/broken/SKILL.md')}:1: has no frontmatter: a SKILL.md starts with a line '---', then its name and description in YAML, then '---'`,
  ]);
  expect(found.skills.map((skill) => [skill.name, skill.source])).toEqual([
    ...(withReal ? [['frontend-design', 'folder']] : []),
    ['greet', 'user'],
    ...(withReal ? [['internal-comms', 'folder']] : []),
    ['release', 'project'],
    ...(withReal ? [['theme-factory', 'folder']] : []),
  ]);

  server = await startScriptedSseServer(
    [
      chatReply({ toolCall: { id: 'call_load', name: 'load_skill', input: { name: 'release' } } }),
      chatReply({
        toolCall: {
          id: 'call_file',
          name: 'read_skill_file',
          input: { skill: 'release', path: 'references/steps.md' },
        },
      }),
      chatReply({
        toolCall: {
          id: 'call_escape',
          name: 'read_skill_file',
          input: { skill: 'release', path: '../../../../user/greet/SKILL.md' },
        },
      }),
      chatReply({ toolCall: { id: 'call_again', name: 'load_skill', input: { name: 'release' } } }),
      chatReply({ toolCall: { id: 'call_shell', name: 'shell', input: { command: 'echo tagged' } } }),
      chatReply({ text: 'Released.' }),
    ],
    { basePath: '/v1', done: true },
  );
  const store = new FileSessionStore({ root: join(root, 'sessions') });
  const manager = new SessionManager({
    store,
    agentOptions: () => ({
      provider: openai({ baseURL: server?.url ?? '', apiKey: 'test' }),
      model: 'gpt-5-mini',
      orchestrator: agentic(),
      tools: [shellTool({ cwd: join(root, 'project') }), ...skillTools(found.skills)],
      systemPrompt: new SystemPromptBuilder({
        identity: 'You are a release assistant.',
        skills: found.skills,
      }).build,
      policy: preApproveSkillTools('standard', found.skills),
    }),
  });
  const session = await manager.create({ id: 'release' });
  const run = session.prompt('Please release version 1.2.');
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  const result = await run.result();

  expect(result.terminateReason).toBe('completed');
  expect(result.text).toBe('Released.');
  checkValidHistory(result.messages);
  const requests = server.requests as {
    messages: { role: string; content: unknown }[];
    tools: { function: { name: string } }[];
  }[];
  const system = String(requests[0]?.messages[0]?.content);
  expect(requests[0]?.messages[0]?.role).toBe('system');
  expect(system).toContain(
    `- release: Tags a release. Use when the user asks to release or tag a version. (${join(root, 'project/.agents/skills/release/SKILL.md')})`,
  );
  expect(system).toContain('- greet: Greets people. Use when asked to say hello.');
  if (withReal) expect(system).toContain('- theme-factory: Toolkit for styling artifacts with a theme.');
  expect(system).not.toContain("The user's older release skill");
  expect(JSON.stringify(requests[0])).not.toContain('Follow references/steps.md');
  expect(JSON.stringify(requests[0])).not.toContain('Theme Factory Skill');
  expect(requests[0]?.tools.map((tool) => tool.function.name)).toEqual([
    'shell',
    'load_skill',
    'read_skill_file',
  ]);

  const toolMessage = (index: number) => requests[index]?.messages.at(-1);
  expect(toolMessage(1)).toMatchObject({ role: 'tool' });
  expect(String(toolMessage(1)?.content)).toContain('Follow references/steps.md exactly.');
  expect(String(toolMessage(2)?.content)).toContain('Step 1: run `echo tagged` with the shell tool.');
  expect(String(toolMessage(3)?.content)).toMatch(/leaves the folder of skill 'release'/);
  expect(String(toolMessage(4)?.content)).toMatch(/^Skill 'release' is already loaded/);
  expect(String(toolMessage(5)?.content)).toContain('tagged');
  expect(JSON.stringify(requests[5]?.messages).split('Follow references/steps.md exactly.').length - 1).toBe(
    1,
  );
  expect(existsSync(join(root, 'project/.agents/skills/release/RAN'))).toBe(false);

  const policy = events
    .filter((event) => event.type === 'policy')
    .map((event) => [event.toolCall.name, event.decision]);
  expect(policy.at(-1)).toEqual(['shell', 'allow']);
  expect(events.find((event) => event.type === 'policy' && event.toolCall.name === 'shell')).toMatchObject({
    reason: "pre-approved by skill 'release' (its allowed-tools lists 'shell'; loaded in this session)",
  });
  expect(events.filter(isSkillEvent).map((event) => [event.data.action, event.data.sent])).toEqual([
    ['load', true],
    ['read_file', true],
    ['load', false],
  ]);

  // The stored session holds what was loaded: another process (a manager with nothing in memory) reads it back.
  await session.idle();
  const later = new SessionManager({
    store,
    agentOptions: () => ({ provider: openai({ apiKey: 'unused' }), model: 'gpt-5-mini' }),
  });
  const stored = await later.get('release');
  const loads = stored.messages.filter(
    (message): message is ToolResultMessage =>
      message.role === 'toolResult' && message.toolName === 'load_skill',
  );
  expect(loads.map((message) => String(message.content).split('\n')[0])).toEqual([
    `<skill name="release" location="${join(root, 'project/.agents/skills/release/SKILL.md')}">`,
    "Skill 'release' is already loaded: its instructions are in an earlier load_skill result above. Follow them; there is no need to load it again.",
  ]);
  expect(await readFile(join(root, 'project/.agents/skills/release/SKILL.md'), 'utf8')).toContain(
    'name: release',
  );
});
