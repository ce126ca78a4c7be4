import { defineTool } from '@agent-core/core';
import { z } from 'zod';
import { evaluateExpression } from './evaluate-expression.js';

/**
 * The `calculator` tool: evaluates an arithmetic expression such as
 * `15 * 3` or `(2 + 3) ^ 2` and returns the number as text.
 */
export function calculatorTool() {
  return defineTool({
    name: 'calculator',
    description:
      'Evaluates an arithmetic expression with + - * / % ^ and parentheses, e.g. "15 * 3". Returns the result.',
    parameters: z.object({
      expression: z.string().min(1).describe('The expression to evaluate, e.g. "(2 + 3) * 4"'),
    }),
    risk: 'read',
    execute: ({ expression }) => {
      const value = evaluateExpression(expression);
      // Round away binary noise such as 0.1 + 0.2 = 0.30000000000000004.
      return String(Number.parseFloat(value.toPrecision(12)));
    },
  });
}
