/** What a part of a value that `structuredClone` must copy makes the fast copy give up with. */
const notPlain: unique symbol = Symbol('not plain');

/** Deeper than this, the value may hold a cycle: `structuredClone` copies it. */
const maxDepth = 64;

/**
 * A deep copy equal to what `structuredClone` gives, made quickly for what a
 * session holds: plain objects, arrays and primitives (on Node 20,
 * `structuredClone` of one small message costs several microseconds). A value
 * with anything else inside (a `Date`, a `Map`, a class instance, a function,
 * an array with holes, an own `__proto__` key, more than 64 levels or a
 * cycle) is copied whole by `structuredClone`, whose rules and errors then apply.
 * Objects that appear twice in a plain value become two equal copies, and an
 * array's own named properties (beside its items) are not copied.
 */
export function plainCopy<T>(value: T): T {
  const copy = copyOf(value, 0);
  return copy === notPlain ? structuredClone(value) : (copy as T);
}

/**
 * The fast copy of `plainCopy` alone: undefined for a value it cannot copy
 * (one `structuredClone` would have to), so a caller that knows such values
 * are rare checks them only then. A copy returned is at most 64 levels deep.
 */
export function fastPlainCopy<T>(value: T): T | undefined {
  const copy = copyOf(value, 0);
  return copy === notPlain ? undefined : (copy as T);
}

function copyOf(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'function' || typeof value === 'symbol' ? notPlain : value;
  }
  if (depth === maxDepth) return notPlain;
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Array.prototype) return copyArray(value as unknown[], depth + 1);
  if (prototype !== Object.prototype) return notPlain;
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    // Assigning `__proto__` would set the copy's prototype instead of a key.
    if (key === '__proto__') return notPlain;
    const member = copyOf(record[key], depth + 1);
    if (member === notPlain) return notPlain;
    copy[key] = member;
  }
  return copy;
}

function copyArray(array: unknown[], depth: number): unknown {
  const copy = new Array(array.length);
  for (let index = 0; index < array.length; index++) {
    if (!(index in array)) return notPlain;
    const item = copyOf(array[index], depth);
    if (item === notPlain) return notPlain;
    copy[index] = item;
  }
  return copy;
}
