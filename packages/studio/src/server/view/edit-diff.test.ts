import { describe, expect, it } from 'vitest';
import { editDiff, lineDiff } from './edit-diff.js';

describe('editDiff', () => {
  it('diffs an exact replacement line by line', () => {
    expect(
      editDiff({ path: 'a.ts', old_string: 'one\ntwo\nthree\n', new_string: 'one\n2\nthree\nfour\n' }),
    ).toEqual({
      path: 'a.ts',
      cut: false,
      lines: [
        { kind: ' ', text: 'one' },
        { kind: '-', text: 'two' },
        { kind: '+', text: '2' },
        { kind: ' ', text: 'three' },
        { kind: '+', text: 'four' },
      ],
    });
  });

  it('shows a whole file written as added lines, and cuts a long one', () => {
    expect(editDiff({ path: 'b.txt', content: 'x\ny' })?.lines).toEqual([
      { kind: '+', text: 'x' },
      { kind: '+', text: 'y' },
    ]);
    const long = editDiff({ path: 'c.txt', content: 'line\n'.repeat(1000) });
    expect(long?.lines).toHaveLength(400);
    expect(long?.cut).toBe(true);
  });

  it('has nothing to say of other inputs', () => {
    expect(editDiff({ command: 'rm -rf build' })).toBeUndefined();
    expect(editDiff({ path: 3, content: 'x' })).toBeUndefined();
  });

  it('compares two large texts without a quadratic table', () => {
    const before = Array.from({ length: 5000 }, (_, index) => `a${index}`).join('\n');
    const after = Array.from({ length: 5000 }, (_, index) => `b${index}`).join('\n');
    const lines = lineDiff(before, after);
    expect(lines.filter((line) => line.kind === '-')).toHaveLength(5000);
    expect(lines.filter((line) => line.kind === '+')).toHaveLength(5000);
  });
});
