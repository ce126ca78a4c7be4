import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ReceivedRequest, ScriptedReply } from './compatible-server.js';

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/**
 * A project and a user with skills, as people have them: the project's
 * `release` skill (with a references file and a script that leaves a mark if
 * it ever runs), a broken skill in `.claude/skills/`, and the user's own
 * `release` (hidden by the project's) and `greet`.
 */
export function writeSkills(project: string, home: string): void {
  mkdirSync(join(project, '.git'), { recursive: true });
  write(
    project,
    '.agents/skills/release/SKILL.md',
    '---\nname: release\ndescription: Tags a release. Use when the user asks to release or tag a version.\nallowed-tools: shell\n---\n\nFollow references/steps.md exactly.\n',
  );
  write(
    project,
    '.agents/skills/release/references/steps.md',
    'Step 1: run `echo tagged` with the shell tool.\n',
  );
  write(project, '.agents/skills/release/scripts/tag.sh', '#!/bin/sh\ntouch "$(dirname "$0")/RAN"\n');
  write(project, '.claude/skills/broken/SKILL.md', '# A skill without frontmatter\n');
  const user = join(home, '.config', 'agent-core', 'skills');
  write(
    user,
    'release/SKILL.md',
    "---\nname: release\ndescription: The user's own release skill.\n---\nUser steps.\n",
  );
  write(
    user,
    'greet/SKILL.md',
    '---\nname: greet\ndescription: Greets people. Use when asked to say hello.\n---\nSay hello.\n',
  );
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('');
  return '';
}

/** The replies of a model that uses the skills: what it does next follows the prompt and the tool results so far. */
export function skillScript(request: ReceivedRequest): ScriptedReply {
  const messages = request.messages;
  let lastUser = messages.length - 1;
  while (lastUser > 0 && messages[lastUser]?.role !== 'user') lastUser--;
  const prompt = textOf(messages[lastUser]?.content);
  const results = messages.slice(lastUser + 1).filter((message) => message.role === 'tool');
  const step = results.length;
  if (/\brelease\b/.test(prompt)) {
    const plan: ScriptedReply[] = [
      { toolCalls: [{ name: 'load_skill', arguments: { name: 'release' } }] },
      {
        toolCalls: [
          { name: 'read_skill_file', arguments: { skill: 'release', path: 'references/steps.md' } },
        ],
      },
      {
        toolCalls: [
          { name: 'read_skill_file', arguments: { skill: 'release', path: '../../../secret.txt' } },
        ],
      },
      { text: 'Released.' },
    ];
    return plan[step] ?? { text: 'Released.' };
  }
  if (/\btag\b/.test(prompt)) {
    const plan: ScriptedReply[] = [
      { toolCalls: [{ name: 'load_skill', arguments: { name: 'release' } }] },
      { toolCalls: [{ name: 'shell', arguments: { command: 'echo tagged' } }] },
      { text: `Tagged: ${textOf(results.at(-1)?.content).includes('tagged') ? 'yes' : 'no'}.` },
    ];
    return plan[step] ?? { text: 'Tagged.' };
  }
  return { text: 'Hello.' };
}
