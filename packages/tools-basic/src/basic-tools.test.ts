import { ToolRegistry, listToolPacks } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { basicTools, calculatorTool, clockTool, evaluateExpression } from './index.js';

const context = { signal: new AbortController().signal, toolCallId: 't', agent: undefined };

describe('evaluateExpression', () => {
  it.each([
    ['15 * 3', 45],
    ['10+5', 15],
    ['(2 + 3) * 4', 20],
    ['2 ^ 3 ^ 2', 512],
    ['-3 + 5', 2],
    ['7 % 4', 3],
    ['1.5e2 / 3', 50],
  ])('%s = %d', (expression, value) => {
    expect(evaluateExpression(expression)).toBe(value);
  });

  it.each([
    ['2 +', /Unexpected end/],
    ['(1 + 2', /Missing closing parenthesis/],
    ['1 / 0', /Division by zero/],
    ['process.exit()', /Unexpected 'p' at position 1/],
    ['1 2', /Unexpected '2'/],
  ])('refuses %s', (expression, message) => {
    expect(() => evaluateExpression(expression)).toThrow(message);
  });
});

describe('tools', () => {
  it('calculator rounds binary noise', async () => {
    expect(await calculatorTool().execute({ expression: '0.1 + 0.2' }, context)).toBe('0.3');
  });

  it('clock tells the time in a zone, and refuses unknown zones', async () => {
    const clock = clockTool({ now: () => new Date('2026-03-01T12:00:00Z') });
    expect(await clock.execute({ timeZone: 'Asia/Tokyo' }, context)).toMatch(
      /^2026-03-01, 21:00:00 .*\(Asia\/Tokyo\)$/,
    );
    expect(() => clock.execute({ timeZone: 'Mars/Olympus' }, context)).toThrow(
      /Unknown time zone 'Mars\/Olympus'/,
    );
  });

  it('registers the basic pack', () => {
    expect(listToolPacks()).toContain('basic');
    expect(new ToolRegistry().resolvePacks(['basic']).map((tool) => tool.name)).toEqual([
      'calculator',
      'clock',
    ]);
    expect(basicTools().map((tool) => tool.risk)).toEqual(['read', 'read']);
  });
});
