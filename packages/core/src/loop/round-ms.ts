/** Rounds a duration to a tenth of a millisecond: what a log or a UI can use, without float noise. */
export function roundMs(milliseconds: number): number {
  return Math.round(milliseconds * 10) / 10;
}
