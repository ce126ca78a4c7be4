import { readFile, stat } from 'node:fs/promises';
import { loadPromptLayers, type PromptSkill, SystemPromptBuilder } from '@agent-core/core';
import type { CliConfig } from '../config/load-config.js';
import { findProjectFiles } from '../config/project-files.js';

const identity =
  'You are a helpful assistant running in agent-core. Use the tools when they help, and answer briefly.';

// A system prompt or AGENTS.md larger than this would crowd out the conversation.
const maxPromptBytes = 256 * 1024;

/**
 * The system prompt of a session working in `folder`: the CLI's identity,
 * replaced by the project's `.agent-core/system_prompt.md` when there is one
 * (core's prompt layers; `{{model}}`, `{{provider}}`, `{{tools}}` filled in),
 * the project's `AGENTS.md` as a section of its own, the mode's layer from
 * the config's `mode_prompts` (read at each model call: a mode can change
 * between prompts), the tools, the skills (names, descriptions and
 * locations only) and the folder.
 */
export async function systemPromptFor(
  config: CliConfig,
  folder: string,
  mode: () => string | undefined,
  skills: readonly PromptSkill[] = [],
): Promise<SystemPromptBuilder> {
  const project = findProjectFiles(folder);
  const read = async (path: string) => {
    // A device or a huge file is refused unread; core's loader names the file in its ConfigError.
    const info = await stat(path);
    if (!info.isFile()) throw new Error('it is not a regular file');
    if (info.size > maxPromptBytes)
      throw new Error(`it is ${Math.ceil(info.size / 1024)} KiB; at most ${maxPromptBytes / 1024} KiB`);
    return readFile(path, 'utf8');
  };
  const [layers, agents] = await Promise.all([
    loadPromptLayers(project.systemPrompt === undefined ? {} : { project: project.systemPrompt }, read),
    project.agents === undefined ? undefined : loadPromptLayers({ project: project.agents }, read),
  ]);
  const modePrompts = config.values.mode_prompts ?? {};
  return new SystemPromptBuilder({
    identity: { ...layers, default: identity },
    workspace: folder,
    skills,
    sections: [
      ...(skills.length === 0
        ? []
        : [
            {
              name: 'skill commands',
              order: 310,
              text: 'A message that starts with / and the name of a skill asks for that skill: load it first, then do what the rest of the message says with it.',
              template: false,
            },
          ]),
      ...(agents?.project === undefined
        ? []
        : [
            {
              name: 'agents',
              order: 150,
              heading: 'Project instructions (AGENTS.md)',
              text: agents.project,
              template: false,
            },
          ]),
      ...(Object.keys(modePrompts).length === 0
        ? []
        : [
            {
              name: 'mode',
              order: 160,
              text: () => {
                const name = mode();
                const text = name === undefined ? undefined : modePrompts[name];
                return text === undefined ? undefined : `## Mode: ${name}\n${text}`;
              },
            },
          ]),
    ],
  });
}
