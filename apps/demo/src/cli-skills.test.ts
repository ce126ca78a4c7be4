import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedRequest, startCompatibleServer } from './test-support/compatible-server.js';
import { makeHome, runCli } from './test-support/run-cli.js';
import { skillScript, writeSkills } from './test-support/skill-project.js';

// Agent Skills through the CLI as a process, against a local OpenAI-compatible server that records
// every request: what the model is sent up front, after it loads a skill and reads a file.

let server: Awaited<ReturnType<typeof startCompatibleServer>>;
let home: string;
let project: string;
beforeAll(async () => {
  server = await startCompatibleServer({ reply: skillScript });
  home = makeHome();
  project = realpathSync(mkdtempSync(join(tmpdir(), 'agent-core-skills-')));
  writeSkills(project, home);
  writeFileSync(join(project, '..', 'secret.txt'), 'not for the model');
});
afterAll(() => server.close());

function configure(extra: string[] = []) {
  mkdirSync(join(home, '.config', 'agent-core'), { recursive: true });
  writeFileSync(
    join(home, '.config', 'agent-core', 'config.toml'),
    [
      'provider = "local"',
      'tools = ["basic", "shell"]',
      ...extra,
      '[providers.local]',
      'type = "openai"',
      `base_url = "${server.url}"`,
      'model = "small"',
    ].join('\n'),
  );
}

const cli = (args: string[], stdin?: string) =>
  runCli(args, { home, cwd: project, ...(stdin === undefined ? {} : { stdin }) });

function requestsSince(count: number): ReceivedRequest[] {
  return server.requests.slice(count) as ReceivedRequest[];
}

function systemOf(request: ReceivedRequest | undefined): string {
  return String(request?.messages.find((message) => message.role === 'system')?.content ?? '');
}

describe('Agent Skills in the CLI', { timeout: 60_000 }, () => {
  it('chat: names and descriptions up front, the body and a file when the model asks, escapes refused, broken skills warned about', async () => {
    configure();
    const before = server.requests.length;
    const { code, stdout, stderr } = await cli(['chat', 'Please release version 1.2']);
    expect(code).toBe(0);
    expect(stdout).toContain('Released.');
    expect(stderr).toContain(
      `skill left out: ${join(project, '.claude/skills/broken/SKILL.md')}:1: has no frontmatter`,
    );
    const [first, second, third, fourth] = requestsSince(before);
    const system = systemOf(first);
    expect(system).toContain(
      `- release: Tags a release. Use when the user asks to release or tag a version. (${join(project, '.agents/skills/release/SKILL.md')})`,
    );
    expect(system).toContain('- greet: Greets people. Use when asked to say hello.');
    expect(system).not.toContain("The user's own release skill");
    expect(system).toContain('call load_skill with its name');
    expect(JSON.stringify(first)).not.toContain('Follow references/steps.md');
    expect(first?.tools?.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(['load_skill', 'read_skill_file', 'shell']),
    );
    expect(String(second?.messages.at(-1)?.content)).toContain('Follow references/steps.md exactly.');
    expect(String(third?.messages.at(-1)?.content)).toContain('Step 1: run `echo tagged`');
    expect(String(fourth?.messages.at(-1)?.content)).toMatch(/leaves the folder of skill 'release'/);
    expect(JSON.stringify(fourth)).not.toContain('not for the model');
    expect(existsSync(join(project, '.agents/skills/release/scripts/RAN'))).toBe(false);
  });

  it('skills list shows each skill with its source, the hidden one and the broken one with why', async () => {
    configure();
    const { code, stdout } = await cli(['skills', 'list']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/greet\s+user\s+Greets people/);
    expect(stdout).toMatch(/release\s+project\s+Tags a release/);
    expect(stdout).toContain(
      `hidden: release (user) ${join(home, '.config/agent-core/skills/release/SKILL.md')}, by the project skill ${join(project, '.agents/skills/release/SKILL.md')}`,
    );
    expect(stdout).toContain(
      `broken: ${join(project, '.claude/skills/broken/SKILL.md')}:1: has no frontmatter`,
    );
  });

  it('skills validate: exit code 1 for a folder with a broken skill, 0 for a valid one', async () => {
    configure();
    const broken = await cli(['skills', 'validate', '.claude/skills']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('0 valid skills, 1 error, 0 warnings.');
    const valid = await cli(['skills', 'validate', '.agents/skills/release']);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toContain('1 valid skill, 0 errors, 0 warnings.');
    const everything = await cli(['skills', 'validate']);
    expect(everything.code).toBe(1);
    expect(everything.stdout).toMatch(/ok {2}greet/);
  });

  it('[skills] turns skills off, adds folders and leaves out the user folder; --no-skills too', async () => {
    const team = join(project, 'team-skills', 'review');
    mkdirSync(team, { recursive: true });
    writeFileSync(
      join(team, 'SKILL.md'),
      '---\nname: review\ndescription: Reviews a change.\n---\nRead twice.\n',
    );
    configure();
    // A relative folder of the project's config file is read from the project folder.
    mkdirSync(join(project, '.agent-core'), { recursive: true });
    writeFileSync(
      join(project, '.agent-core', 'config.toml'),
      '[skills]\nfolders = ["team-skills"]\nuser = false\n',
    );
    try {
      const listed = await cli(['skills', 'list']);
      expect(listed.stdout).toMatch(/review\s+folder\s+Reviews a change/);
      expect(listed.stdout).not.toContain('greet');
    } finally {
      rmSync(join(project, '.agent-core'), { recursive: true });
    }
    let before = server.requests.length;
    await cli(['chat', '--no-skills', 'Hello']);
    const [plain] = requestsSince(before);
    expect(plain?.tools?.map((tool) => tool.function.name)).not.toContain('load_skill');
    expect(systemOf(plain)).not.toContain('## Skills');
    configure(['[skills]', 'enabled = false']);
    before = server.requests.length;
    await cli(['chat', 'Hello']);
    expect(systemOf(requestsSince(before)[0])).not.toContain('## Skills');
    expect((await cli(['skills', 'list'])).stdout).toContain('Skills are turned off');
  });

  it('allowed-tools: off, a listed tool still pauses the headless run; on, it runs once the skill is loaded', async () => {
    configure();
    const paused = await cli(['run', '--no-input', 'tag the version']);
    expect(paused.code).toBe(3);
    configure(['[skills]', 'allowed_tools = true']);
    const before = server.requests.length;
    const allowed = await cli(['run', '--no-input', 'tag the version']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('Tagged: yes.');
    expect(requestsSince(before)).toHaveLength(3);
  });

  it('the REPL: /skills lists them, /NAME hands the line to the model, which loads the skill', async () => {
    configure();
    const before = server.requests.length;
    const { code, stdout } = await cli([], '/skills\n/release 1.2 now\n/exit\n');
    expect(code).toBe(0);
    expect(stdout).toMatch(/release\s+project\s+Tags a release/);
    expect(stdout).toContain('Released.');
    const [first] = requestsSince(before);
    expect(first?.messages.at(-1)).toMatchObject({ role: 'user', content: '/release 1.2 now' });
    expect(systemOf(first)).toContain(
      'A message that starts with / and the name of a skill asks for that skill',
    );
  });
});
