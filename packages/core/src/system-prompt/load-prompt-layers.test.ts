import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPromptLayers, resolvePromptLayers, SystemPromptBuilder } from '../index.js';

const readText = (path: string) => readFile(path, 'utf8');

describe('loadPromptLayers', () => {
  it('reads the layers that exist; the project file overrides the mode and the default', async () => {
    const root = await mkdtemp(join(tmpdir(), 'prompt-layers-'));
    await mkdir(join(root, '.agent-core'));
    await writeFile(join(root, 'default.md'), 'Default prompt for {{model}}.');
    await writeFile(join(root, 'code.md'), 'Code mode.');
    const files = {
      default: join(root, 'default.md'),
      modes: { code: join(root, 'code.md'), chat: join(root, 'missing.md') },
      project: join(root, '.agent-core', 'system-prompt.md'),
    };
    const layers = await loadPromptLayers(files, readText);
    expect(layers).toEqual({ default: 'Default prompt for {{model}}.', modes: { code: 'Code mode.' } });
    expect(resolvePromptLayers(layers, 'code')).toBe('Code mode.');
    const builder = new SystemPromptBuilder({ identity: layers, mode: 'chat', tools: false });
    expect(builder.build({ provider: 'p', model: 'm', tools: [] })).toBe('Default prompt for m.');

    await writeFile(files.project, 'Project rules win.');
    expect(resolvePromptLayers(await loadPromptLayers(files, readText), 'code')).toBe('Project rules win.');
  });

  it('a path that cannot be read (a directory) is a clear ConfigError naming it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'prompt-layers-'));
    await expect(loadPromptLayers({ default: root }, readText)).rejects.toThrow(
      `Could not read the system prompt file ${root}`,
    );
  });
});
