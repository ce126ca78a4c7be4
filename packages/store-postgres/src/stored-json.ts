/**
 * jsonb cannot hold every string JavaScript can: it refuses the NUL character
 * (`\u0000`, which a shell tool's output of a binary file holds) and lone
 * surrogates (text cut in the middle of an emoji). JSON.stringify writes both
 * as escapes; a value whose JSON has one is stored as a jsonb string holding
 * its JSON text instead, which jsonb always accepts, so nothing is refused or
 * changed. Reading turns such a string back into the value.
 */
const unsafeEscape = /\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/** JSON text for a jsonb column, as it is sent: the value's JSON, or that JSON as a JSON string when jsonb would refuse it. */
export function storedJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('a value that JSON cannot represent cannot be stored');
  return unsafeEscape.test(text) ? JSON.stringify(text) : text;
}

/**
 * A jsonb column's value as stored by `storedJson`, back to the value. Also
 * takes the raw text a pool whose jsonb parser was turned off returns.
 */
export function fromStoredJson(stored: unknown): unknown {
  let value = stored;
  // At most twice: raw text of a wrapped value is a JSON string of a JSON string.
  for (let depth = 0; depth < 2 && typeof value === 'string'; depth++) value = JSON.parse(value);
  return value;
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A string for a text column: PostgreSQL text holds no NUL character, and a
 * lone surrogate has no UTF-8 form; both become U+FFFD, as a UTF-8 encoder
 * would write the surrogate anyway. Used for the summary's title and time only.
 */
export function textColumn(value: string): string {
  return value.replaceAll('\u0000', '\uFFFD').replace(loneSurrogate, '\uFFFD');
}
