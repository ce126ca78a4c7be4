/**
 * Evaluates an arithmetic expression: numbers, `+ - * / % ^`, parentheses and
 * unary minus. A small recursive-descent parser; never `eval`. Throws an Error
 * that names the position of the first problem.
 */
export function evaluateExpression(expression: string): number {
  let position = 0;
  const text = expression;

  const fail = (what: string): never => {
    throw new Error(
      `${what} at position ${position + 1} of '${text}'. Use numbers, + - * / % ^ and parentheses.`,
    );
  };
  const skipSpaces = () => {
    while (position < text.length && /\s/.test(text[position] as string)) position++;
  };
  const peek = () => {
    skipSpaces();
    return text[position];
  };

  const primary = (): number => {
    const next = peek();
    if (next === '(') {
      position++;
      const value = sum();
      if (peek() !== ')') fail('Missing closing parenthesis');
      position++;
      return value;
    }
    if (next === '-' || next === '+') {
      position++;
      const value = power();
      return next === '-' ? -value : value;
    }
    const match = /^(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?/.exec(text.slice(position));
    if (match === null) return fail(next === undefined ? 'Unexpected end' : `Unexpected '${next}'`);
    position += match[0].length;
    return Number(match[0]);
  };
  const power = (): number => {
    const base = primary();
    if (peek() === '^') {
      position++;
      return base ** power();
    }
    return base;
  };
  const product = (): number => {
    let value = power();
    for (let next = peek(); next === '*' || next === '/' || next === '%'; next = peek()) {
      position++;
      const right = power();
      if ((next === '/' || next === '%') && right === 0) fail('Division by zero');
      value = next === '*' ? value * right : next === '/' ? value / right : value % right;
    }
    return value;
  };
  const sum = (): number => {
    let value = product();
    for (let next = peek(); next === '+' || next === '-'; next = peek()) {
      position++;
      const right = product();
      value = next === '+' ? value + right : value - right;
    }
    return value;
  };

  const value = sum();
  if (peek() !== undefined) fail(`Unexpected '${text[position]}'`);
  return value;
}
