import picocolors from 'picocolors';
import type { Environment } from '../config/xdg-paths.js';

/** Colour functions: the identity when colours are off. */
export type Style = ReturnType<typeof picocolors.createColors>;

/** A stream the CLI writes to, as much of it as rendering needs. */
export interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * True when output may carry escape codes (colours, a spinner, rendered
 * markdown): the stream is a terminal, `NO_COLOR` is unset or empty, and
 * `TERM` is not `dumb`. Piped output and `NO_COLOR` get plain, stable lines.
 */
export function isRich(stream: OutputStream, env: Environment): boolean {
  return stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
}

/** Colours for a stream: on only when `isRich`. */
export function styleFor(stream: OutputStream, env: Environment): Style {
  return picocolors.createColors(isRich(stream, env));
}
