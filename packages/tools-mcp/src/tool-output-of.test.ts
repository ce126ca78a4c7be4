import { describe, expect, test } from 'vitest';
import { textOf, toolOutputOf } from './tool-output-of.js';

describe('toolOutputOf', () => {
  test('joins text-only content into one string', () => {
    expect(
      toolOutputOf({
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      }),
    ).toBe('one\ntwo');
  });

  test('keeps images as image blocks beside text', () => {
    expect(
      toolOutputOf({
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      }),
    ).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    ]);
  });

  test('an embedded image resource becomes an image block', () => {
    expect(
      toolOutputOf({
        content: [
          { type: 'resource', resource: { uri: 'file:///a.png', mimeType: 'image/png', blob: 'AAAA' } },
        ],
      }),
    ).toEqual([{ type: 'image', data: 'AAAA', mimeType: 'image/png' }]);
  });

  test('shows structured-only results as JSON and says when there is nothing', () => {
    expect(toolOutputOf({ content: [], structuredContent: { answer: 42 } })).toBe('{"answer":42}');
    expect(toolOutputOf({ content: [] })).toBe('(the tool returned no content)');
    expect(toolOutputOf({ toolResult: { old: true } })).toBe('{"old":true}');
  });

  test('describes content kinds it does not know instead of dropping them', () => {
    expect(toolOutputOf({ content: [{ type: 'hologram', depth: 3 }] })).toBe(
      '[Unsupported MCP content: {"type":"hologram","depth":3}]',
    );
  });

  test('textOf reads only the text blocks', () => {
    expect(
      textOf({
        content: [
          { type: 'text', text: 'bad input' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      }),
    ).toBe('bad input');
  });
});
