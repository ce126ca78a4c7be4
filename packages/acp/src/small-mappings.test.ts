import type { AgentResult } from '@agent-core/core';
import { expect, test } from 'vitest';
import { answerOf, permissionOptions } from './permission-options.js';
import { PlanTracker } from './plan-tracker.js';
import { userContentOf } from './prompt-content.js';
import { stopReasonOf } from './stop-reason.js';

const ended = (terminateReason: string, stopReason = 'end_turn') =>
  ({
    terminateReason,
    messages: [{ role: 'assistant', content: [], stopReason }],
  }) as unknown as AgentResult;

test('stop reasons map from how the run ended; failures have none (the prompt answers an error)', () => {
  expect(stopReasonOf(ended('completed'))).toBe('end_turn');
  expect(stopReasonOf(ended('completed', 'refusal'))).toBe('refusal');
  expect(stopReasonOf(ended('aborted'))).toBe('cancelled');
  expect(stopReasonOf(ended('max_turns'))).toBe('max_turn_requests');
  expect(stopReasonOf(ended('max_tokens'))).toBe('max_tokens');
  expect(stopReasonOf(ended('output_limit'))).toBe('max_tokens');
  expect(stopReasonOf(ended('await_user'))).toBe('end_turn');
  expect(stopReasonOf(ended('error'))).toBeUndefined();
  expect(stopReasonOf(ended('timeout'))).toBeUndefined();
});

test('each permission answer maps onto an approval decision; anything unknown denies', () => {
  expect(permissionOptions.map((option) => option.kind)).toEqual([
    'allow_once',
    'allow_always',
    'reject_once',
    'reject_always',
  ]);
  const selected = (optionId: string) => answerOf({ outcome: 'selected', optionId });
  expect(selected('allow_once')).toEqual({ decision: 'allow', rejectAlways: false, cancelled: false });
  expect(selected('allow_always')).toEqual({
    decision: 'allow_always',
    rejectAlways: false,
    cancelled: false,
  });
  expect(selected('reject_once')).toEqual({ decision: 'deny', rejectAlways: false, cancelled: false });
  expect(selected('reject_always')).toEqual({ decision: 'deny', rejectAlways: true, cancelled: false });
  expect(selected('something-else')).toEqual({ decision: 'deny', rejectAlways: false, cancelled: false });
  expect(answerOf({ outcome: 'cancelled' })).toEqual({
    decision: 'deny',
    rejectAlways: false,
    cancelled: true,
  });
});

test('plans follow plan, step and re-plan events; done steps stay on top after a re-plan', () => {
  const plan = new PlanTracker();
  const statuses = () => plan.entries().map((entry) => `${entry.content}:${entry.status}`);
  plan.update('plan', { steps: [{ title: 'A' }, { title: 'B' }] });
  expect(statuses()).toEqual(['A:pending', 'B:pending']);
  plan.update('step_start', { index: 0 });
  expect(statuses()).toEqual(['A:in_progress', 'B:pending']);
  plan.update('step_end', { index: 0, status: 'done' });
  plan.update('step_start', { index: 1 });
  plan.update('step_end', { index: 1, status: 'failed' });
  expect(statuses()).toEqual(['A:completed', 'B:pending']);
  plan.update('replan', { steps: [{ title: 'B2' }, { title: 'C' }] });
  expect(statuses()).toEqual(['A:completed', 'B2:pending', 'C:pending']);
  expect(plan.update('something_else', {})).toBeUndefined();
  expect(plan.update('step_start', { index: 9 })).toBeUndefined();
});

test('prompt content: text, images, resource links and embedded resources become user content; audio is refused', () => {
  expect(
    userContentOf([
      { type: 'text', text: 'Look at' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'resource_link', name: 'a.ts', uri: 'file:///w/a.ts' },
      { type: 'resource', resource: { uri: 'file:///w/b.ts', text: 'let b;' } },
      { type: 'resource', resource: { uri: 'file:///w/c.png', blob: 'BBBB', mimeType: 'image/png' } },
      { type: 'resource', resource: { uri: 'file:///w/d.bin', blob: 'CCCC' } },
    ]),
  ).toEqual([
    { type: 'text', text: 'Look at' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { type: 'text', text: '[Resource: a.ts (file:///w/a.ts)]' },
    { type: 'text', text: '<resource uri="file:///w/b.ts">\nlet b;\n</resource>' },
    { type: 'image', data: 'BBBB', mimeType: 'image/png' },
    {
      type: 'text',
      text: '[Binary resource file:///w/d.bin (unknown type) attached; its content is not shown.]',
    },
  ]);
  expect(() => userContentOf([{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }])).toThrow(
    /'audio' content is not supported/,
  );
  expect(() => userContentOf([])).toThrow(/the prompt is empty/);
});
