import { checkValidHistory } from '@agent-core/core/testing';
import { calculator } from '@agent-core/test-support';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cassette } from '@agent-core/cassette';
import { Agent, type AgentEvent, type AgentResult, type Provider } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { anthropic } from '@agent-core/provider-anthropic';
import { openai } from '@agent-core/provider-openai';
import { describe, expect, it } from 'vitest';
import {
  anthropicReply,
  chatReply,
  closeServersAfterEach,
  type ScriptedSseServer,
  startScriptedSseServer,
} from './test-support/scripted-sse-server.js';

// A run recorded through a provider's real SDK against a local server speaking the vendor's wire
// format, then replayed offline: the same events and result, and no request reaches the server.

const closeAfterTest = closeServersAfterEach();

const apiKey = 'sk-test-0123456789abcdef';

const dialects: {
  name: string;
  model: string;
  start(): Promise<ScriptedSseServer>;
  provider(url: string): Provider;
}[] = [
  {
    name: 'Anthropic Messages, with thinking',
    model: 'claude-sonnet-4-6',
    start: () =>
      startScriptedSseServer(
        [
          anthropicReply({
            thinking: 'Multiply first.',
            signature: 'EqQBsig',
            toolCall: { id: 'toolu_01A', name: 'calculator', input: { expression: '15*3' } },
          }),
          anthropicReply({ text: '15*3 is 45.' }),
        ],
        { basePath: '' },
      ),
    provider: (url) => anthropic({ baseURL: url, apiKey }),
  },
  {
    name: 'OpenAI Chat Completions',
    model: 'gpt-5-mini',
    start: () =>
      startScriptedSseServer(
        [
          chatReply({ toolCall: { id: 'call_Xy1', name: 'calculator', input: { expression: '15*3' } } }),
          chatReply({ text: '15*3 is 45.' }),
        ],
        { basePath: '/v1', done: true },
      ),
    provider: (url) => openai({ baseURL: url, apiKey }),
  },
];

async function run(provider: Provider, model: string, systemPrompt: string) {
  const agent = new Agent({ provider, model, systemPrompt, tools: [calculator], orchestrator: agentic() });
  const handle = agent.prompt('What is 15*3?');
  const events: AgentEvent[] = [];
  for await (const event of handle) events.push(event);
  return { events, result: await handle.result() };
}

const runSpecific = new Set(['runId', 'traceId', 'spanId', 'parentSpanId', 'durationMs', 'metrics']);

/** Events and results without what differs between two runs of one conversation: run and span ids, durations. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Error) return { name: value.name, message: value.message };
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !runSpecific.has(key))
      .map(([key, field]) => [key, stable(field)]),
  );
}

describe.each(dialects)('a cassette of $name', (dialect) => {
  it('replays the recorded run offline with the same events and result', async () => {
    const server = await dialect.start();
    closeAfterTest(server);
    const file = join(mkdtempSync(join(tmpdir(), 'e2e-cassette-')), 'calculator.json');

    const recorder = await cassette({ file, provider: dialect.provider(server.url), mode: 'record' });
    const recorded = await run(recorder, dialect.model, 'You are a calculator.');
    expect(recorded.result.terminateReason).toBe('completed');
    expect(recorded.result.text).toBe('15*3 is 45.');
    expect(server.requests).toHaveLength(2);

    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(apiKey);
    expect(text.toLowerCase()).not.toContain('authorization');

    // Replayed with the same real provider behind it: nothing may reach the server.
    const player = await cassette({ file, provider: dialect.provider(server.url), mode: 'replay' });
    const replayed = await run(player, dialect.model, 'You are a calculator.');
    expect(server.requests).toHaveLength(2);
    expect(stable(replayed.events)).toEqual(stable(recorded.events));
    expect(stable(replayed.result)).toEqual(stable(recorded.result) as AgentResult);
    checkValidHistory(replayed.result.messages);
    expect(player.unusedEntries()).toEqual([]);
  });

  it('fails closed with a diff naming the system prompt when it changed, asking the server nothing', async () => {
    const server = await dialect.start();
    closeAfterTest(server);
    const file = join(mkdtempSync(join(tmpdir(), 'e2e-cassette-')), 'calculator.json');
    await run(
      await cassette({ file, provider: dialect.provider(server.url), mode: 'record' }),
      dialect.model,
      'You are a calculator.',
    );
    const player = await cassette({ file, provider: dialect.provider(server.url), mode: 'replay' });
    const { result } = await run(player, dialect.model, 'You are a careful calculator.');
    expect(server.requests).toHaveLength(2);
    expect(result.terminateReason).toBe('error');
    expect(player.misses[0]?.differences).toEqual([
      { path: 'system', before: 'You are a calculator.', after: 'You are a careful calculator.' },
    ]);
    expect(result.error?.message).toContain(
      '  system:\n    before: "You are a calculator."\n    after:  "You are a careful calculator."',
    );
    checkValidHistory(result.messages);
  });
});
