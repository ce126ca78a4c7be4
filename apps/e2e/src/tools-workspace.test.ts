import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { checkValidHistory } from '@agent-core/core/testing';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';
import { fsTools } from '@agent-core/tools-fs';
import { shellTool } from '@agent-core/tools-shell';
import { afterEach, beforeEach, expect, it } from 'vitest';

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'agent-core-e2e-'));
  await writeFile(join(workspace, 'greeting.txt'), 'Hello, world!\n');
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

it('an agent reads a file, edits it and runs a shell command in a temporary workspace', async () => {
  const provider = mock({
    turns: [
      { toolCalls: [{ name: 'read_file', input: { path: 'greeting.txt' } }] },
      {
        toolCalls: [
          { name: 'edit_file', input: { path: 'greeting.txt', old_string: 'world', new_string: 'agents' } },
        ],
      },
      { toolCalls: [{ name: 'shell', input: { command: 'cat greeting.txt && wc -l < greeting.txt' } }] },
      { toolCalls: [{ name: 'read_file', input: { path: '../outside.txt' } }] },
      { text: 'Done: the greeting now says hello to agents.' },
    ],
  });
  const agent = new Agent({
    provider,
    model: 'mock',
    tools: [...fsTools({ root: workspace }), shellTool({ cwd: workspace })],
    orchestrator: agentic(),
  });
  const result = await agent.prompt('Change the greeting to say hello to agents, then show it.').result();

  expect(result.terminateReason).toBe('completed');
  expect(await readFile(join(workspace, 'greeting.txt'), 'utf8')).toBe('Hello, agents!\n');
  const [read, edit, shell, outside] = result.toolCalls;
  expect(read).toMatchObject({ name: 'read_file', isError: false });
  expect(String(read?.result)).toContain('Hello, world!');
  expect(edit).toMatchObject({ name: 'edit_file', isError: false });
  expect(shell).toMatchObject({ name: 'shell', isError: false });
  expect(String(shell?.result)).toMatch(/exit code 0[\s\S]*Hello, agents![\s\S]*1/);
  expect(outside).toMatchObject({ name: 'read_file', isError: true });
  expect(String(outside?.result)).toMatch(/outside/i);
  checkValidHistory(result.messages);
  // What the tools returned is what the model was sent.
  expect(JSON.stringify(provider.requests[3]?.messages.at(-1))).toContain('Hello, agents!');
});
