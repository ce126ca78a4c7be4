import type { DiffLine } from '../../shared/studio-data.js';

/** The most lines a diff shows; past it the diff says it was cut. */
const diffLineLimit = 400;

/**
 * The change a file tool's call would make, as lines of a diff, recognised by
 * the input's shape rather than the tool's name: `{ path, old_string,
 * new_string }` (an exact replacement) or `{ path, content }` (a whole file).
 * Undefined for any other input.
 */
export function editDiff(
  input: Record<string, unknown>,
): { path: string; lines: DiffLine[]; cut: boolean } | undefined {
  const path = input.path;
  if (typeof path !== 'string') return undefined;
  const before = input.old_string ?? input.oldString ?? input.old_text;
  const after = input.new_string ?? input.newString ?? input.new_text;
  if (typeof before === 'string' && typeof after === 'string') return limited(path, lineDiff(before, after));
  if (typeof input.content === 'string')
    return limited(
      path,
      splitLines(input.content).map((text) => ({ kind: '+', text })),
    );
  return undefined;
}

function limited(path: string, lines: DiffLine[]): { path: string; lines: DiffLine[]; cut: boolean } {
  return lines.length > diffLineLimit
    ? { path, lines: lines.slice(0, diffLineLimit), cut: true }
    : { path, lines, cut: false };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * A line diff of two texts: common lines kept, the rest removed then added.
 * Longest common subsequence over the lines between the common head and
 * tail; past a few million cells (two huge texts), the middle is shown as
 * removed and added whole rather than compared.
 */
export function lineDiff(before: string, after: string): DiffLine[] {
  const left = splitLines(before);
  const right = splitLines(after);
  let head = 0;
  while (head < left.length && head < right.length && left[head] === right[head]) head++;
  let tail = 0;
  while (
    tail < left.length - head &&
    tail < right.length - head &&
    left[left.length - 1 - tail] === right[right.length - 1 - tail]
  )
    tail++;
  const lines: DiffLine[] = left.slice(0, head).map((text) => ({ kind: ' ', text }));
  const middleLeft = left.slice(head, left.length - tail);
  const middleRight = right.slice(head, right.length - tail);
  lines.push(...middleDiff(middleLeft, middleRight));
  lines.push(...left.slice(left.length - tail).map((text): DiffLine => ({ kind: ' ', text })));
  return lines;
}

function middleDiff(left: string[], right: string[]): DiffLine[] {
  if (left.length * right.length > 4_000_000)
    return [
      ...left.map((text): DiffLine => ({ kind: '-', text })),
      ...right.map((text): DiffLine => ({ kind: '+', text })),
    ];
  const width = right.length + 1;
  const lengths = new Uint32Array((left.length + 1) * width);
  for (let row = left.length - 1; row >= 0; row--) {
    for (let column = right.length - 1; column >= 0; column--) {
      lengths[row * width + column] =
        left[row] === right[column]
          ? (lengths[(row + 1) * width + column + 1] as number) + 1
          : Math.max(
              lengths[(row + 1) * width + column] as number,
              lengths[row * width + column + 1] as number,
            );
    }
  }
  const lines: DiffLine[] = [];
  let row = 0;
  let column = 0;
  while (row < left.length && column < right.length) {
    if (left[row] === right[column]) {
      lines.push({ kind: ' ', text: left[row] as string });
      row++;
      column++;
    } else if (
      (lengths[(row + 1) * width + column] as number) >= (lengths[row * width + column + 1] as number)
    )
      lines.push({ kind: '-', text: left[row++] as string });
    else lines.push({ kind: '+', text: right[column++] as string });
  }
  while (row < left.length) lines.push({ kind: '-', text: left[row++] as string });
  while (column < right.length) lines.push({ kind: '+', text: right[column++] as string });
  return lines;
}
