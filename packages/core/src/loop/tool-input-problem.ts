/** The deepest nesting a tool call's input may have; deeper input could not be sent back to a provider. */
export const maxToolInputDepth = 64;

/** The most characters a tool call's input may hold (its strings and keys, about its JSON size). */
export const maxToolInputChars = 1_000_000;

/**
 * Why a tool call's input cannot be kept as the model gave it, or undefined
 * when it can: it is not a JSON object, it is nested deeper than
 * `maxToolInputDepth`, or it holds more than `maxToolInputChars` characters.
 * Such input would make the next request impossible to serialise or send, on
 * every later turn, so the loop keeps `{}` in its place and refuses the call.
 * One pass over the input, stopping at the first problem.
 */
export function toolInputProblem(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return `its input was ${input === null ? 'null' : Array.isArray(input) ? 'an array' : `a ${typeof input}`}, not a JSON object`;
  const flat = flatInputChars(input as Record<string, unknown>);
  if (flat >= 0) {
    return flat > maxToolInputChars
      ? `its input holds more than ${maxToolInputChars.toLocaleString('en-US')} characters`
      : undefined;
  }
  let chars = 0;
  // An explicit stack, not recursion: a hostile input must not overflow this check either.
  const values: unknown[] = [input];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop() as number;
    if (typeof value === 'string') chars += value.length;
    else if (typeof value === 'object' && value !== null) {
      if (depth > maxToolInputDepth) return `its input is nested more than ${maxToolInputDepth} levels deep`;
      if (Array.isArray(value))
        for (const item of value) {
          values.push(item);
          depths.push(depth + 1);
        }
      else
        for (const key of Object.keys(value)) {
          chars += key.length;
          values.push((value as Record<string, unknown>)[key]);
          depths.push(depth + 1);
        }
    } else chars += 8;
    if (chars > maxToolInputChars)
      return `its input holds more than ${maxToolInputChars.toLocaleString('en-US')} characters`;
  }
  return undefined;
}

/**
 * The characters of an input whose values are all strings, numbers, booleans
 * or null (most tool calls'), counted as `toolInputProblem` does, or -1 when
 * a value is an object or an array: one pass over its keys, no stack.
 */
function flatInputChars(input: Record<string, unknown>): number {
  let chars = 0;
  const keys = Object.keys(input);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const value = input[key];
    if (typeof value === 'string') chars += key.length + value.length;
    else if (typeof value === 'object' && value !== null) return -1;
    else chars += key.length + 8;
  }
  return chars;
}
