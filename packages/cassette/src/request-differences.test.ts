import { describe, expect, it } from 'vitest';
import type { CassetteRequest } from './cassette-data.js';
import { describeDifferences, requestDifferences } from './request-differences.js';

const recorded: CassetteRequest = {
  model: 'm',
  system: 'Be brief.',
  tools: [],
  settings: { temperature: 0 },
  messages: [
    { role: 'user', content: 'Summarise the file.' },
    {
      role: 'assistant',
      content: [{ type: 'toolCall', id: 'call_1', name: 'read', input: { path: 'a.txt' } }],
    },
    { role: 'toolResult', toolCallId: 'call_1', toolName: 'read', content: 'old text', isError: false },
  ],
};

describe('requestDifferences', () => {
  it('names each field, then the first message that differs down to its field, then the count', () => {
    const asked: CassetteRequest = {
      ...recorded,
      settings: { temperature: 0.5 },
      messages: [
        recorded.messages[0]!,
        {
          role: 'assistant',
          content: [{ type: 'toolCall', id: 'call_1', name: 'read', input: { path: 'b.txt' } }],
        },
        recorded.messages[2]!,
        { role: 'user', content: 'Shorter.' },
      ],
    };
    expect(requestDifferences(recorded, asked)).toEqual([
      { path: 'settings.temperature', before: 0, after: 0.5 },
      {
        path: 'messages[1].content[0].input.path',
        before: 'a.txt',
        after: 'b.txt',
        message: 1,
        label: 'messages[1] (assistant)',
      },
      { path: 'messages.length', before: 3, after: 4, message: 3, label: 'messages[3] (user)' },
    ]);
  });

  it('leaves out the fields a recording does not know', () => {
    const { system: _system, tools: _tools, settings: _settings, ...partial } = recorded;
    expect(requestDifferences(partial, { ...recorded, system: 'Anything.' })).toEqual([]);
  });

  it('shows long strings around their first difference', () => {
    const long = `${'x'.repeat(200)}old${'y'.repeat(200)}`;
    const text = describeDifferences(
      requestDifferences(
        { messages: [{ role: 'user', content: long }] },
        {
          messages: [{ role: 'user', content: long.replace('old', 'new') }],
        },
      ),
    );
    expect(text).toContain('messages[0].content in messages[0] (user):');
    expect(text).toContain(`before: …"${'x'.repeat(40)}old${'y'.repeat(77)}"…`);
    expect(text).toContain(`after:  …"${'x'.repeat(40)}new${'y'.repeat(77)}"…`);
  });
});
