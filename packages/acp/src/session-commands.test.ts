import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { connectEditor, updatesOf } from './test-support/acp-pair.js';

let folder: string;
beforeEach(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'acp-session-commands-')));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

test("a session's own commands are advertised after the server's, never in place of one, and reach the model", async () => {
  const provider = mock({ turns: () => ({ text: 'From the model.' }) });
  const editor = await connectEditor({
    createAgent: ({ cwd }) => ({
      provider,
      model: 'mock',
      orchestrator: stepOrchestrator,
      commands: [
        { name: 'release', description: `Release from ${cwd === folder ? 'this folder' : 'elsewhere'}` },
        { name: 'cost', description: 'A skill named like a server command' },
      ],
    }),
    commands: [{ name: 'cost', description: 'Tokens so far', run: () => 'no tokens' }],
  });
  const { sessionId } = await editor.context.request('session/new', { cwd: folder, mcpServers: [] });
  await editor.context.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: '/release 1.2' }],
  });
  expect(updatesOf(editor.notifications, sessionId)[0]).toEqual({
    sessionUpdate: 'available_commands_update',
    availableCommands: [
      { name: 'cost', description: 'Tokens so far' },
      { name: 'release', description: 'Release from this folder' },
    ],
  });
  expect(JSON.stringify(provider.requests[0]?.messages)).toContain('/release 1.2');
  await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '/cost' }] });
  expect(provider.requests).toHaveLength(1);
  await editor.quit();
});

test("the editor's policy pick comes before the agent's own beforeRun hooks, which may refine it", async () => {
  let runs = 0;
  const deploy = defineTool({
    name: 'deploy',
    description: 'Deploys',
    risk: 'execute',
    parameters: z.object({}),
    execute: () => {
      runs++;
      return 'deployed';
    },
  });
  const seen: unknown[] = [];
  const provider = mock({
    turns: [{ toolCalls: [{ name: 'deploy', input: {} }] }, { text: 'Done.' }],
  });
  const editor = await connectEditor({
    createAgent: () => ({
      provider,
      model: 'mock',
      orchestrator: stepOrchestrator,
      tools: [deploy],
      policy: 'standard',
      hooks: {
        beforeRun: (run) => {
          seen.push(run.policy);
          run.policy = 'permissive';
        },
      },
    }),
  });
  const { sessionId } = await editor.context.request('session/new', { cwd: folder, mcpServers: [] });
  await editor.context.request('session/set_config_option', {
    sessionId,
    configId: 'policy',
    value: 'strict',
  });
  await editor.context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'deploy' }] });
  expect(seen).toEqual(['strict']);
  expect(runs).toBe(1);
  await editor.quit();
});
