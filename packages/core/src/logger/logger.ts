import { redactSecrets } from './redact-secrets.js';
import { isoNow } from '../time/iso-now.js';

/** Structured fields of a log line. Never put secrets here (loggers of core redact what they recognise). */
export type LogFields = Record<string, unknown>;

/**
 * Where core and plugins write diagnostics. Core is silent unless given one;
 * given one, each run writes records for its start and end, every model call
 * attempt, retries, every tool call and errors, each with `runId`, `traceId`
 * and `spanId` fields, secrets already redacted.
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

function ignore(): void {}

/** A logger that drops everything: the default. */
export const silentLogger: Logger = { debug: ignore, info: ignore, warn: ignore, error: ignore };

/**
 * A logger writing one JSON line per entry to stderr, at `level` and above:
 * `{ time, level, message, ...fields }`, passed through `redactSecrets` first.
 */
export function stderrLogger(level: 'debug' | 'info' | 'warn' | 'error' = 'info'): Logger {
  const order = ['debug', 'info', 'warn', 'error'];
  const threshold = order.indexOf(level);
  const write = (name: string) => (message: string, fields?: LogFields) => {
    if (order.indexOf(name) < threshold) return;
    const line = JSON.stringify(redactSecrets({ time: isoNow(), level: name, message, ...fields }));
    (globalThis as { process?: { stderr?: { write(text: string): void } } }).process?.stderr?.write(
      `${line}\n`,
    );
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
