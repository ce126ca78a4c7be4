import { describe, expect, test } from 'vitest';
import { defaultToolName, safeToolName } from './safe-tool-name.js';

const valid = /^[a-zA-Z0-9_-]{1,64}$/;

describe('safeToolName', () => {
  test('keeps names that are already valid', () => {
    expect(safeToolName('files__read_file')).toBe('files__read_file');
    expect(safeToolName('a-b_C9')).toBe('a-b_C9');
  });

  test('replaces characters providers refuse with _', () => {
    expect(safeToolName('my server__read.file/v2 ü')).toBe('my_server__read_file_v2__');
  });

  test('shortens long names to 64 characters with a stable hash suffix', () => {
    const long = `server__${'x'.repeat(100)}`;
    const name = safeToolName(long);
    expect(name).toHaveLength(64);
    expect(name).toMatch(valid);
    expect(name).toMatch(/^server__x+_[0-9a-f]{8}$/);
    expect(safeToolName(long)).toBe(name);
    expect(safeToolName(`${long}y`)).not.toBe(name);
  });

  test('a name of exactly 64 characters is kept whole', () => {
    const name = 'a'.repeat(64);
    expect(safeToolName(name)).toBe(name);
  });

  test('an empty name becomes a valid one', () => {
    expect(safeToolName('')).toMatch(valid);
  });

  test('the default name is <server>__<tool>', () => {
    expect(defaultToolName('files', 'read')).toBe('files__read');
  });
});
