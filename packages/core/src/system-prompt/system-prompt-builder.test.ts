import { homedir, hostname, userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  defineTool,
  RuntimeInfo,
  resolvePromptLayers,
  type SystemPromptContext,
  SystemPromptBuilder,
  TemplateError,
} from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';

const read = defineTool({
  name: 'read',
  description: 'Reads a file of the workspace.',
  parameters: z.object({ path: z.string() }),
  execute: () => '',
});
const shell = defineTool({
  name: 'shell',
  description: 'Runs a command.',
  parameters: z.object({ command: z.string() }),
  execute: () => '',
});
const context: SystemPromptContext = {
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  tools: [read, shell],
};
const now = () => new Date('2026-03-01T13:45:10Z');

describe('SystemPromptBuilder', () => {
  it('builds every section in order, templates filled', () => {
    const builder = new SystemPromptBuilder({
      identity: {
        default: 'You are a helpful assistant.',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the prompt template syntax itself
        modes: { code: 'You are {{model}} from {{provider}}, a coding agent for ${team}. Tools: {{tools}}.' },
      },
      mode: 'code',
      skills: [{ name: 'review', description: 'Reviews a change.' }],
      modelAliases: { fast: 'claude-haiku-4-5', smart: 'claude-opus-4-1' },
      workspace: '/work/project',
      sandbox: 'Commands run in a container without network access.',
      runtime: { timezone: 'Europe/Paris' },
      memory: 'The user prefers short answers.',
      sections: [
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the prompt template syntax itself
        { name: 'rules', order: 150, heading: 'Rules', text: 'Never push to ${branch}.' },
        { name: 'closing', order: 900, text: 'Be precise.' },
      ],
      variables: { team: 'the platform team', branch: 'main' },
      now,
    });
    expect(builder.build(context)).toBe(
      [
        'You are claude-sonnet-4-5 from anthropic, a coding agent for the platform team. Tools: read, shell.',
        '## Rules\nNever push to main.',
        '## Tools\n- read: Reads a file of the workspace.\n- shell: Runs a command.',
        '## Skills\n- review: Reviews a change.',
        '## Model aliases\n- fast: claude-haiku-4-5\n- smart: claude-opus-4-1',
        '## Workspace\nWorking directory: /work/project',
        '## Sandbox\nCommands run in a container without network access.',
        '## Runtime\n- Model: claude-sonnet-4-5\n- Provider: anthropic\n- Timezone: Europe/Paris\n- Current time: 2026-03-01 14:45',
        '## Memory\nThe user prefers short answers.',
        'Be precise.',
      ].join('\n\n'),
    );
  });

  it('omits empty sections cleanly', () => {
    const builder = new SystemPromptBuilder({
      identity: 'Hello.',
      skills: [],
      modelAliases: { only: 'one-model' },
      workspace: '',
      memory: () => '   ',
      sections: [{ name: 'nothing', order: 50, heading: 'Nothing', text: () => undefined }],
    });
    expect(builder.build({ ...context, tools: [] })).toBe('Hello.');
    expect(new SystemPromptBuilder().build({ ...context, tools: [] })).toBe('');
  });

  it('refuses an unknown variable, naming it and its section', () => {
    const builder = new SystemPromptBuilder({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the prompt template syntax itself
      sections: [{ name: 'rules', order: 150, text: 'Ask ${owner} first.' }],
    });
    expect(() => builder.build(context)).toThrow(TemplateError);
    expect(() => builder.build(context)).toThrow(
      /rules section of the system prompt uses the unknown variable 'owner'/,
    );
    expect(() => new SystemPromptBuilder({ identity: 'I am {{name}}.' }).build(context)).toThrow(
      /identity section .* unknown variable 'name'/,
    );
  });

  it('leaves memory and tool descriptions alone: they are not templates', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the prompt template syntax itself
    const builder = new SystemPromptBuilder({ memory: 'The user wrote ${HOME} and {{x}} in a note.' });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the prompt template syntax itself
    expect(builder.build(context)).toContain('The user wrote ${HOME} and {{x}} in a note.');
  });

  it('layers: the project override beats the mode, the mode beats the default', () => {
    const layers = { default: 'default', modes: { code: 'code mode' }, project: 'project' };
    expect(resolvePromptLayers(layers, 'code')).toBe('project');
    expect(resolvePromptLayers({ ...layers, project: undefined }, 'code')).toBe('code mode');
    expect(resolvePromptLayers({ ...layers, project: undefined }, 'chat')).toBe('default');
    expect(resolvePromptLayers({}, 'chat')).toBe('');
  });

  it('rebuilds only when the provider, model, tools or a dynamic section changed', () => {
    let reads = 0;
    const counted = {
      ...read,
      get description() {
        reads++;
        return 'Reads a file.';
      },
    };
    let memory = 'first note';
    const builder = new SystemPromptBuilder({ identity: 'You are {{model}}.', memory: () => memory });
    const tools = [counted];
    const first = builder.build({ ...context, tools });
    builder.build({ ...context, tools });
    expect(reads).toBe(1);
    builder.build({ ...context, tools, model: 'other-model' });
    expect(reads).toBe(2);
    memory = 'second note';
    expect(builder.build({ ...context, tools, model: 'other-model' })).toContain('second note');
    expect(reads).toBe(3);
    expect(first).toContain('first note');
  });

  it('plugs into the Agent as systemPrompt and sees the call’s provider, model and tools', async () => {
    const provider = inlineProvider([[textDone('ok')]], 'scripted');
    const builder = new SystemPromptBuilder({
      identity: 'You are {{model}} on {{provider}} with {{tools}}.',
    });
    const agent = new Agent({
      provider,
      model: 'm-1',
      tools: [read],
      orchestrator: stepOrchestrator,
      systemPrompt: builder.build,
    });
    await agent.prompt('hi').result();
    expect(provider.requests[0]?.system).toBe(
      'You are m-1 on scripted with read.\n\n## Tools\n- read: Reads a file of the workspace.',
    );
  });
});

describe('RuntimeInfo', () => {
  it('tells the model, provider, time zone and time, and nothing of the host', () => {
    const info = RuntimeInfo.fromEnvironment({ model: 'model-a', provider: 'provider-b' });
    expect(info.model).toBe('model-a');
    expect(info.provider).toBe('provider-b');
    expect(info.timezone).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(info.time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    const section = new SystemPromptBuilder({ runtime: true, tools: false }).build({
      provider: 'provider-b',
      model: 'model-a',
      tools: [],
    });
    expect(section.startsWith('## Runtime\n- Model: model-a\n- Provider: provider-b\n- Timezone: ')).toBe(
      true,
    );
    for (const secret of [hostname(), userInfo().username, process.platform, process.arch, homedir()]) {
      expect(section).not.toContain(secret);
    }
    expect(Object.keys(info).sort()).toEqual(['model', 'provider', 'time', 'timezone']);
  });

  it('refuses an unknown time zone with a clear error', () => {
    expect(() => RuntimeInfo.fromEnvironment({ timezone: 'Mars/Olympus' })).toThrow(
      /Unknown time zone 'Mars\/Olympus'/,
    );
  });
});
