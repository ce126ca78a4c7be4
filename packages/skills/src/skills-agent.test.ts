import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  Agent,
  type AgentEvent,
  isSkillEvent,
  SystemPromptBuilder,
  skillTools,
  type ToolResultMessage,
} from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { discoverSkills } from './discover-skills.js';
import { copyFixtures, sharedSkillsFolder } from './test-support/fixture-folders.js';

const shared = sharedSkillsFolder();

function results(messages: readonly { role: string }[]): ToolResultMessage[] {
  return messages.filter((message) => message.role === 'toolResult') as ToolResultMessage[];
}

describe('discovered skills in an agent', () => {
  it('names and descriptions up front, the body and a bundled file when asked, escapes refused, scripts never run, broken skills reported', async () => {
    const root = await copyFixtures('project', 'user', 'broken');
    const found = await discoverSkills({
      project: join(root, 'project'),
      folders: [join(root, 'broken')],
      user: join(root, 'user'),
    });
    expect(found.problems.filter((problem) => problem.severity === 'error')).toHaveLength(8);
    const provider = mock({
      turns: [
        { toolCalls: [{ name: 'load_skill', input: { name: 'release-notes' } }] },
        {
          toolCalls: [
            { name: 'read_skill_file', input: { skill: 'release-notes', path: 'references/format.md' } },
          ],
        },
        {
          toolCalls: [
            {
              name: 'read_skill_file',
              input: { skill: 'release-notes', path: '../../../../user/translate/SKILL.md' },
            },
          ],
        },
        {
          toolCalls: [
            { name: 'read_skill_file', input: { skill: 'release-notes', path: 'scripts/collect.sh' } },
          ],
        },
        { text: 'Added: skills.' },
      ],
    });
    const agent = new Agent({
      provider,
      model: 'mock',
      tools: skillTools(found.skills),
      systemPrompt: new SystemPromptBuilder({ identity: 'You write release notes.', skills: found.skills })
        .build,
      orchestrator: stepOrchestrator,
    });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const result = await agent.prompt('Write the release notes for this week.').result();

    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('Added: skills.');
    const first = provider.requests[0];
    expect(first?.system).toContain(
      `- release-notes: Writes release notes from merged changes. Use when the user asks for release notes, a changelog entry or a summary of what shipped. (${join(root, 'project/.agents/skills/release-notes/SKILL.md')})`,
    );
    expect(first?.system).toContain(
      '- translate: Translates text between languages. Use when the user asks for a translation.',
    );
    expect(first?.system).not.toContain('other-name');
    expect(JSON.stringify(first)).not.toContain('Collect the merged changes');
    expect(JSON.stringify(first)).not.toContain('Old instructions');

    const [body, format, escaped, script] = results(result.messages);
    expect(body?.content).toMatch(
      /^<skill name="release-notes" location=".*\/SKILL.md">\n# Release notes\n\n1\. Collect the merged changes/,
    );
    expect(body?.content).toMatch(
      /Files of this skill \(read one with read_skill_file\): assets\/template.md, references\/format.md, scripts\/collect.sh\.$/,
    );
    expect(format?.content).toContain('Group changes under Added, Changed and Fixed');
    expect(escaped).toMatchObject({ isError: true });
    expect(escaped?.content).toMatch(/leaves the folder of skill 'release-notes'/);
    expect(script?.content).toContain('touch "$(dirname "$0")/../RAN"');
    expect(existsSync(join(root, 'project/.agents/skills/release-notes/RAN'))).toBe(false);
    expect(
      events.filter(isSkillEvent).map((event) => [event.data.action, event.data.path ?? event.data.skill]),
    ).toEqual([
      ['load', 'release-notes'],
      ['read_file', 'references/format.md'],
      ['read_file', 'scripts/collect.sh'],
    ]);
  });

  it.skipIf(shared === undefined)(
    'uses the real skills of a public skills repository: a body, a bundled theme, the PDF refused as binary',
    async () => {
      const found = await discoverSkills({ folders: [shared as string], user: false });
      expect(found.problems).toEqual([]);
      expect(found.skills.map((skill) => skill.name)).toEqual([
        'frontend-design',
        'internal-comms',
        'theme-factory',
      ]);
      const provider = mock({
        turns: [
          { toolCalls: [{ name: 'load_skill', input: { name: 'theme-factory' } }] },
          {
            toolCalls: [
              { name: 'read_skill_file', input: { skill: 'theme-factory', path: 'themes/ocean-depths.md' } },
            ],
          },
          {
            toolCalls: [
              { name: 'read_skill_file', input: { skill: 'theme-factory', path: 'theme-showcase.pdf' } },
            ],
          },
          { text: 'Themed.' },
        ],
      });
      const agent = new Agent({
        provider,
        model: 'mock',
        tools: skillTools(found.skills),
        systemPrompt: new SystemPromptBuilder({ skills: found.skills }).build,
        orchestrator: stepOrchestrator,
      });
      const result = await agent.prompt('Style my slides').result();
      expect(provider.requests[0]?.system).toContain(
        '- theme-factory: Toolkit for styling artifacts with a theme.',
      );
      const [body, theme, pdf] = results(result.messages);
      expect(body?.content).toContain('# Theme Factory Skill');
      expect(body?.content).toContain('themes/ocean-depths.md');
      expect(theme?.content).toMatch(
        /^<skill_file skill="theme-factory" path="themes\/ocean-depths.md">\n# Ocean Depths/,
      );
      expect(pdf).toMatchObject({ isError: true });
      expect(pdf?.content).toMatch(/is a binary file \(\d+ bytes\), not text; use it by its path/);
    },
  );
  if (shared === undefined)
    console.info(
      'skipped the real skills: ../shared/fixtures/skills is not beside the repository (CI has it)',
    );
});
