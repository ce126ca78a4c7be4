let second = Number.NaN;
let secondText = '';

/**
 * `new Date().toISOString()`, made from the text of the current second and
 * the milliseconds: `toISOString` costs about 0.8 µs on Node 20 and 24, and
 * approvals and session logs stamp every tool call with it.
 */
export function isoNow(): string {
  const now = Date.now();
  const ms = now % 1000;
  const start = now - (ms < 0 ? ms + 1000 : ms);
  if (start !== second) {
    second = start;
    // Without its ".000Z": years past 9999 make the text longer, so it is cut from the end.
    secondText = new Date(start).toISOString().slice(0, -5);
  }
  const millis = now - start;
  return `${secondText}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}
