import { expect, test } from 'vitest';
import { OutputCapture } from './output-capture.js';

test('output under the cap is kept whole', () => {
  const capture = new OutputCapture(10);
  capture.append(Buffer.from('hello '));
  capture.append(Buffer.from('you'));
  expect(capture.text()).toBe('hello you');
  expect(capture.droppedBytes).toBe(0);
});

test('output over the cap keeps the head and the tail and counts the rest', () => {
  const capture = new OutputCapture(8);
  for (const chunk of ['abc', 'def', 'ghi', 'jkl', 'mno']) capture.append(Buffer.from(chunk));
  expect(capture.totalBytes).toBe(15);
  expect(capture.droppedBytes).toBe(7);
  expect(capture.text()).toBe(
    'abcd\n[... 7 bytes dropped: showing the first 4 and the last 4 bytes of 15 ...]\nlmno',
  );
});

test('one large chunk is split between head and tail', () => {
  const capture = new OutputCapture(6);
  capture.append(Buffer.from('0123456789'));
  expect(capture.text()).toBe(
    '012\n[... 4 bytes dropped: showing the first 3 and the last 3 bytes of 10 ...]\n789',
  );
});

test('cuts never break a UTF-8 character, and the note counts what was really dropped', () => {
  const capture = new OutputCapture(6);
  capture.append(Buffer.from('ééééé'));
  const text = capture.text();
  expect(text).not.toContain('\uFFFD');
  expect(text).toBe('é\n[... 6 bytes dropped: showing the first 2 and the last 2 bytes of 10 ...]\né');
});
