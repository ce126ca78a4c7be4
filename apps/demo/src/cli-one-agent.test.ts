import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ReceivedRequest,
  type ScriptedReply,
  startCompatibleServer,
} from './test-support/compatible-server.js';
import { makeHome, runCli } from './test-support/run-cli.js';

// chat, run, the REPL and approve make their agents through makeAgentOptions, as `acp` does:
// a change of the configuration (here a mode layer and the project's prompt) reaches each of them.

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('');
  return '';
}

function script(request: ReceivedRequest): ScriptedReply {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return { text: 'Written.' };
  if (textOf(last?.content).includes('write'))
    return { toolCalls: [{ name: 'write_file', arguments: { path: 'out.txt', content: 'x' } }] };
  return { text: 'Hello.' };
}

let server: Awaited<ReturnType<typeof startCompatibleServer>>;
let home: string;
let project: string;
beforeAll(async () => {
  server = await startCompatibleServer({ reply: script });
  home = makeHome();
  project = realpathSync(mkdtempSync(join(tmpdir(), 'agent-core-one-agent-')));
  mkdirSync(join(project, '.agent-core'), { recursive: true });
  writeFileSync(
    join(project, '.agent-core', 'system_prompt.md'),
    'You are {{model}}, made for this project.',
  );
});
afterAll(() => server.close());

/** The user config with a mode layer for the standard policy: what each surface must send. */
function configure(layer: string) {
  mkdirSync(join(home, '.config', 'agent-core'), { recursive: true });
  writeFileSync(
    join(home, '.config', 'agent-core', 'config.toml'),
    [
      'provider = "local"',
      'tools = ["basic", "fs"]',
      '[providers.local]',
      'type = "openai"',
      `base_url = "${server.url}"`,
      'model = "small"',
      '[mode_prompts]',
      `standard = "${layer}"`,
    ].join('\n'),
  );
}

function lastSystem(): string {
  const request = server.requests.at(-1) as ReceivedRequest;
  return textOf(request.messages.find((message) => message.role === 'system')?.content);
}

const cli = (args: string[], stdin?: string) =>
  runCli(args, { home, cwd: project, ...(stdin === undefined ? {} : { stdin }) });

describe('every surface makes its agent from the configuration the same way', { timeout: 30_000 }, () => {
  it('chat', async () => {
    configure('Layer for chat.');
    const { code } = await cli(['chat', 'Hello']);
    expect(code).toBe(0);
    expect(lastSystem()).toContain('You are small, made for this project.');
    expect(lastSystem()).toContain('## Mode: standard\nLayer for chat.');
  });

  it('run', async () => {
    configure('Layer for run.');
    expect((await cli(['run', '--no-input', 'Hello'])).code).toBe(0);
    expect(lastSystem()).toContain('Layer for run.');
    // The policy is the mode: --policy strict picks its layer (none here).
    await cli(['run', '--no-input', '--policy', 'strict', 'Hello']);
    expect(lastSystem()).not.toContain('Layer for run.');
  });

  it('the REPL', async () => {
    configure('Layer for the REPL.');
    const { code, stdout } = await cli([], 'Hello\n/exit\n');
    expect(code).toBe(0);
    expect(stdout).toContain('Hello.');
    expect(lastSystem()).toContain('Layer for the REPL.');
  });

  it('approve', async () => {
    configure('Layer before the pause.');
    const paused = await cli(['run', '--no-input', 'Please write the file']);
    expect(paused.code).toBe(3);
    const id = /approve ([0-9a-f-]{36})/.exec(paused.stdout)?.[1] as string;
    configure('Layer after the pause.');
    const approved = await cli(['approve', id]);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('Written.');
    expect(lastSystem()).toContain('Layer after the pause.');
  });
});
