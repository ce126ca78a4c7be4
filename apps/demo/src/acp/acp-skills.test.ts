import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, expect, test } from 'vitest';
import { type ReceivedRequest, startCompatibleServer } from '../test-support/compatible-server.js';
import { skillScript, writeSkills } from '../test-support/skill-project.js';
import { promptText, useAcpTestFolder } from './test-support/acp-test-folder.js';

// The same skills in an editor session, driven through the official ACP client SDK: they are
// offered as commands, and a command reaches the model, which loads the skill and reads its file.

const folder = useAcpTestFolder('agent-core-acp-skills-');
let project: string;
beforeEach(async () => {
  project = join(folder.directory, 'project');
  await mkdir(project, { recursive: true });
});

const systemOf = (request: ReceivedRequest | undefined) =>
  String(request?.messages.find((message) => message.role === 'system')?.content ?? '');

test('an editor session offers the skills as commands; /release reaches the model, which loads the skill and reads its file', async () => {
  const model = await startCompatibleServer({ reply: skillScript });
  folder.closeAfter(model);
  writeSkills(project, folder.directory);
  // A project skill named like one of the server's commands is never offered in its place.
  await mkdir(join(project, '.agents/skills/cost'), { recursive: true });
  await writeFile(
    join(project, '.agents/skills/cost/SKILL.md'),
    '---\nname: cost\ndescription: Estimates costs.\n---\nEstimate.\n',
  );
  await mkdir(join(folder.directory, '.config', 'agent-core'), { recursive: true });
  await writeFile(
    join(folder.directory, '.config', 'agent-core', 'config.toml'),
    [
      'provider = "local"',
      '[providers.local]',
      'type = "openai"',
      `base_url = "${model.url}"`,
      'model = "small"',
      '',
    ].join('\n'),
  );
  const server = await folder.start({
    cwd: project,
    env: { XDG_CONFIG_HOME: join(folder.directory, '.config'), HOME: folder.directory },
  });
  const { sessionId } = await server.agent.request('session/new', { cwd: project, mcpServers: [] });
  const answer = await promptText(server, sessionId, '/release 1.2');
  expect(answer.stopReason).toBe('end_turn');

  const commands = server
    .updates(sessionId)
    .find((update) => update.sessionUpdate === 'available_commands_update');
  const names = commands?.sessionUpdate === 'available_commands_update' ? commands.availableCommands : [];
  expect(names.map((command) => command.name)).toEqual([
    'compact',
    'cost',
    'tools',
    'help',
    'greet',
    'release',
  ]);
  expect(names.find((command) => command.name === 'release')).toEqual({
    name: 'release',
    description: 'Skill: Tags a release. Use when the user asks to release or tag a version.',
    input: { hint: 'what the skill should work on' },
  });
  expect(names.find((command) => command.name === 'cost')?.description).toBe(
    'Tokens and cost of this session so far',
  );

  const requests = model.requests as ReceivedRequest[];
  expect(requests[0]?.messages.at(-1)).toMatchObject({
    role: 'user',
    content: [{ type: 'text', text: '/release 1.2' }],
  });
  expect(systemOf(requests[0])).toContain(
    `- release: Tags a release. Use when the user asks to release or tag a version. (${join(project, '.agents/skills/release/SKILL.md')})`,
  );
  expect(systemOf(requests[0])).toContain('- greet: Greets people.');
  expect(JSON.stringify(requests[0])).not.toContain('Follow references/steps.md');
  expect(String(requests[1]?.messages.at(-1)?.content)).toContain('Follow references/steps.md exactly.');
  expect(String(requests[2]?.messages.at(-1)?.content)).toContain('Step 1: run `echo tagged`');
  expect(String(requests[3]?.messages.at(-1)?.content)).toMatch(/leaves the folder of skill 'release'/);
  const calls = server
    .updates(sessionId)
    .flatMap((update) => (update.sessionUpdate === 'tool_call' ? [update.rawInput] : []));
  expect(calls).toEqual([
    { name: 'release' },
    { skill: 'release', path: 'references/steps.md' },
    { skill: 'release', path: '../../../secret.txt' },
  ]);
  const text = server
    .updates(sessionId)
    .flatMap((update) =>
      update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
        ? [update.content.text]
        : [],
    )
    .join('');
  expect(text).toContain('Released.');
  expect(server.stderr()).toContain(`skill left out: ${join(project, '.claude/skills/broken/SKILL.md')}:1`);
  expect(existsSync(join(project, '.agents/skills/release/scripts/RAN'))).toBe(false);
});
