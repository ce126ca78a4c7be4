import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { CassetteError } from './cassette-error.js';
import { cassette } from './cassette-provider.js';
import { formatCassette } from './cassette-writer.js';
import { parseCassette } from './parse-cassette.js';
import { agentWith, cassetteFolder, runPrompt } from './test-support/agent-runs.js';

/** A cassette file of a two-step run, recorded for real, and its parsed JSON to edit. */
async function recordedFile(): Promise<{ file: string; data: any }> {
  const file = join(cassetteFolder(), 'add.json');
  const provider = mock({
    turns: [{ toolCalls: [{ name: 'add', input: { a: 2, b: 3 }, id: 'c1' }] }, { text: 'It is 5.' }],
    // Replies without deltas: [toolcall_start, toolcall_end, usage, done] and [usage, done].
    chunkSize: 0,
  });
  await runPrompt(
    agentWith({ provider: await cassette({ file, provider, mode: 'record' }) }),
    'What is 2 + 3?',
  );
  return { file, data: JSON.parse(readFileSync(file, 'utf8')) };
}

async function refusal(file: string, data: unknown): Promise<CassetteError> {
  writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
  const error = await cassette({ file, mode: 'replay' }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(CassetteError);
  return error as CassetteError;
}

describe('cassette files that cannot be used', () => {
  it('names the file when it is not JSON', async () => {
    const { file } = await recordedFile();
    const error = await refusal(file, '{ "format": "agent-core-cassette", ');
    expect(error.code).toBe('cassette_unreadable');
    expect(error.file).toBe(file);
    expect(error.message).toMatch(new RegExp(`^Cassette ${file} is not JSON \\(.+\\)\\. Record it again`));
  });

  it('refuses a newer format version and leaves the file alone', async () => {
    const { file, data } = await recordedFile();
    const error = await refusal(file, { ...data, version: 2 });
    expect(error.code).toBe('cassette_version_unsupported');
    expect(error.message).toContain(
      'format version 2 by a newer @agent-core/cassette; this one reads up to version 1',
    );
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(2);
  });

  it('names the entry and the field of a reply edited so that it no longer parses', async () => {
    const { file, data } = await recordedFile();
    const done = data.entries[1].reply.at(-1);
    done.message.stopReason = 'finished';
    const error = await refusal(file, data);
    expect(error.code).toBe('cassette_invalid');
    expect(error.entry).toBe(1);
    expect(error.message).toContain(
      `Cassette ${file}, entry 1, cannot be read: reply[1].message.stopReason: expected one of end_turn`,
    );
  });

  it('names what is wrong in a tool call, a message, a reply without its end and a bad continuation', async () => {
    const cases: [(data: any) => void, number, string][] = [
      [
        (data) => (data.entries[0].reply[1].toolCall.input = '{"a":2}'),
        0,
        'reply[1].toolCall.input: expected an object',
      ],
      [
        (data) => (data.entries[1].request.messages[1].isError = 'no'),
        1,
        'request.messages[1].isError: expected true or false',
      ],
      [(data) => data.entries[1].reply.pop(), 1, "reply: the last event must be 'done' or 'error'"],
      [
        (data) => (data.entries[1].request.continues = 1),
        1,
        'request.continues must name an earlier entry (0 to 0), got 1',
      ],
      [
        (data) => (data.entries[0].reply[0].type = 'tool_start'),
        0,
        'reply[0].type: expected a model event type, got "tool_start"',
      ],
      [(data) => (data.format = 'vcr'), -1, 'it is not an agent-core cassette'],
    ];
    for (const [edit, entry, detail] of cases) {
      const { file, data } = await recordedFile();
      edit(data);
      const error = await refusal(file, data);
      expect(error.code).toBe('cassette_invalid');
      expect(error.entry).toBe(entry === -1 ? undefined : entry);
      expect(error.message).toContain(detail);
    }
  });

  it('says how to record a cassette that is not there', async () => {
    const file = join(cassetteFolder(), 'missing.json');
    const error = await cassette({ file, mode: 'replay' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'cassette_not_found', file });
    expect((error as Error).message).toBe(
      `No cassette at ${file}. Record it: run once with AGENT_CORE_CASSETTE=record (the real provider answers and the file is written), then commit the file.`,
    );
  });
});

describe('parseCassette and formatCassette', () => {
  it('give back the same text, continuations included', async () => {
    const { file } = await recordedFile();
    const text = readFileSync(file, 'utf8');
    const parsed = parseCassette(text, { file });
    expect(parsed.entries[1]?.request.messages).toHaveLength(3);
    expect(parsed.entries[1]?.request.system).toBe('You add numbers.');
    expect(formatCassette(parsed)).toBe(text);
  });

  it('reads a cassette written by hand with full requests, ids of any shape, and writes it canonical', () => {
    const text = JSON.stringify({
      format: 'agent-core-cassette',
      version: 1,
      entries: [
        {
          request: {
            model: 'm',
            messages: [
              { role: 'user', content: 'add' },
              { role: 'assistant', content: [{ type: 'toolCall', id: 'x9', name: 'add', input: {} }] },
              { role: 'toolResult', toolCallId: 'x9', toolName: 'add', content: '0', isError: false },
            ],
          },
          reply: [{ type: 'done', message: { role: 'assistant', content: [], stopReason: 'end_turn' } }],
        },
      ],
    });
    const parsed = parseCassette(text);
    expect(parsed.entries[0]?.request.messages[2]).toMatchObject({ toolCallId: 'call_1' });
    expect(parsed.entries[0]?.request.system).toBeUndefined();
    const again = parseCassette(formatCassette(parsed));
    expect(again).toEqual(parsed);
  });
});
