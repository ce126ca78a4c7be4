import type { Message } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { ReactTranscript } from './react-transcript.js';

describe('ReactTranscript', () => {
  it('turns a native multi-call turn into one action per observation, images kept', () => {
    const history: Message[] = [
      { role: 'user', content: 'look' },
      {
        role: 'assistant',
        stopReason: 'tool_use',
        content: [
          { type: 'thinking', thinking: 'two lookups', signature: 'sig' },
          { type: 'text', text: 'Checking.' },
          { type: 'toolCall', id: 'a', name: 'find', input: { q: 1 } },
          { type: 'toolCall', id: 'b', name: 'show', input: {} },
        ],
      },
      { role: 'toolResult', toolCallId: 'a', toolName: 'find', content: 'found', isError: false },
      {
        role: 'toolResult',
        toolCallId: 'b',
        toolName: 'show',
        content: [
          { type: 'text', text: 'a picture' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
        isError: false,
      },
      { role: 'assistant', stopReason: 'end_turn', content: [{ type: 'text', text: 'Done.' }] },
    ];
    const transcript = new ReactTranscript();
    const text = (value: string) => ({
      role: 'assistant',
      content: [{ type: 'text', text: value }],
      stopReason: 'end_turn',
    });
    expect(transcript.sync(history)).toEqual([
      { role: 'user', content: 'look' },
      text('Thought: two lookups\nChecking.\nAction: find\nAction Input: {"q":1}'),
      { role: 'user', content: 'Observation: found' },
      text('Action: show\nAction Input: {}'),
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Observation: a picture' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      },
      text('Final Answer: Done.'),
    ]);
  });

  it('converts only what was added since the last sync', () => {
    const history: Message[] = [{ role: 'user', content: 'one' }];
    const transcript = new ReactTranscript();
    const first = transcript.sync(history);
    const converted = first[0];
    history.push({ role: 'user', content: 'two' });
    const second = transcript.sync(history);
    expect(second).toBe(first);
    expect(second[0]).toBe(converted);
    expect(second).toEqual([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
    ]);
  });

  it('starts over when the source did not just grow (reset, rewritten messages)', () => {
    const history: Message[] = [{ role: 'user', content: 'one' }];
    const transcript = new ReactTranscript();
    transcript.sync(history);
    expect(transcript.sync([{ role: 'user', content: 'other' }])).toEqual([
      { role: 'user', content: 'other' },
    ]);
    expect(transcript.sync([])).toEqual([]);
  });

  it('joins thinking blocks by line, texts as they are for an answer, and skips what has neither', () => {
    const text = (value: string) => ({
      role: 'assistant',
      content: [{ type: 'text', text: value }],
      stopReason: 'end_turn',
    });
    const history: Message[] = [
      {
        role: 'assistant',
        stopReason: 'end_turn',
        content: [
          { type: 'thinking', thinking: 'first' },
          { type: 'thinking', thinking: 'hidden', redacted: true },
          { type: 'text', text: 'Forty' },
          { type: 'thinking', thinking: 'second' },
          { type: 'text', text: '-five.' },
        ],
      },
      { role: 'assistant', stopReason: 'end_turn', content: [{ type: 'thinking', thinking: 'only this' }] },
      { role: 'assistant', stopReason: 'end_turn', content: [{ type: 'text', text: '' }] },
      {
        role: 'assistant',
        stopReason: 'tool_use',
        content: [
          { type: 'text', text: 'Let me look.' },
          { type: 'toolCall', id: 'c', name: 'find', input: {} },
        ],
      },
    ];
    expect(new ReactTranscript().sync(history)).toEqual([
      text('Thought: first\nsecond\nFinal Answer: Forty-five.'),
      text('Thought: only this'),
      text('Thought: Let me look.\nAction: find\nAction Input: {}'),
    ]);
  });
});
