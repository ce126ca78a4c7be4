import { AgentError } from '@agent-core/core';
import type { Redactor } from './redactor.js';

/** An error as one redacted sentence for a page or a log: its message, with its code when it has one. */
export function describeError(error: unknown, redactor: Redactor): string {
  if (AgentError.isInstance(error)) return redactor.text(`${error.message} (${error.code})`);
  if (error instanceof Error) return redactor.text(error.message);
  return redactor.text(String(error));
}

/** The code of an agent-core error, else undefined. */
export function errorCode(error: unknown): string | undefined {
  return AgentError.isInstance(error) ? error.code : undefined;
}
