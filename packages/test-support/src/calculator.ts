import { defineTool } from '@agent-core/core';
import { z } from 'zod';

/** A calculator tool that evaluates `a op b` (such as `15*3`), as the seed example uses. */
export const calculator = defineTool({
  name: 'calculator',
  description: 'Evaluates a binary arithmetic expression such as 15*3.',
  parameters: z.object({ expression: z.string().regex(/^\s*-?\d+(\.\d+)?\s*[-+*/]\s*-?\d+(\.\d+)?\s*$/) }),
  execute: ({ expression }) => {
    const [, left, operator, right] = /^\s*(-?[\d.]+)\s*([-+*/])\s*(-?[\d.]+)\s*$/.exec(expression) ?? [];
    const a = Number(left);
    const b = Number(right);
    const value = operator === '+' ? a + b : operator === '-' ? a - b : operator === '*' ? a * b : a / b;
    return String(value);
  },
});
