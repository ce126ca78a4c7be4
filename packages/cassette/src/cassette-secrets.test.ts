import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineTool } from '@agent-core/core';
import { mock } from '@agent-core/provider-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cassette } from './cassette-provider.js';
import { agentWith, cassetteFolder, runPrompt } from './test-support/agent-runs.js';

afterEach(() => {
  delete process.env.MY_SERVICE_API_KEY;
});

describe('secrets never reach a cassette', () => {
  it('redacts keys, authorization headers and credential values wherever they appear, and still replays', async () => {
    // A credential of no known shape, known only as the value of a credential-named variable.
    process.env.MY_SERVICE_API_KEY = 'plain-value-without-a-shape-42';
    const fromOption = 'hunter2-and-more';
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks things up; call with api_key=tool-description-secret',
      parameters: z.object({ query: z.string() }),
      execute: () => 'found: Authorization: Bearer abc.def.ghi-12345',
    });
    const provider = () =>
      mock({
        turns: [
          {
            text: 'Using sk-proj-ZZZZZZZZZZZZZZZZ now.',
            toolCalls: [{ name: 'lookup', input: { query: 'x', apiKey: 'input-secret-value' }, id: 'c1' }],
          },
          { text: `Done with ${fromOption}.` },
        ],
      });
    const agent = () =>
      agentWith({
        provider: recorderOrPlayer,
        tools: [lookup],
        systemPrompt: 'Your key is sk-ant-api03-abcdefghijklmnop. Send x-api-key: zzzz-secret-zzzz.',
      });
    const file = join(cassetteFolder(), 'secrets.json');
    let recorderOrPlayer = await cassette({
      file,
      provider: provider(),
      mode: 'record',
      secrets: [fromOption],
    });
    const prompt = `Use ${process.env.MY_SERVICE_API_KEY} and ${fromOption}, or https://me:pa55word@example.com.`;
    const recorded = await runPrompt(agent(), prompt);
    expect(recorded.result.terminateReason).toBe('completed');

    const text = readFileSync(file, 'utf8');
    for (const secret of [
      'plain-value-without-a-shape-42',
      'hunter2-and-more',
      'tool-description-secret',
      'abc.def.ghi-12345',
      'sk-proj-ZZZZZZZZZZZZZZZZ',
      'input-secret-value',
      'sk-ant-api03-abcdefghijklmnop',
      'zzzz-secret-zzzz',
      'pa55word',
    ])
      expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED]');

    // The same run matches its recording: the live request is redacted the same way before it is looked up.
    recorderOrPlayer = await cassette({ file, mode: 'replay', secrets: [fromOption] });
    const replayed = await runPrompt(agent(), prompt);
    expect(recorderOrPlayer.misses).toEqual([]);
    expect(replayed.result.terminateReason).toBe('completed');
    expect(replayed.result.text).toBe('Done with [REDACTED].');
  });
});
