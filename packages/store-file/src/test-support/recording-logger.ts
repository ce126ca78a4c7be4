import type { LogFields, Logger } from '@agent-core/core';

/** A logger that keeps its warnings, for tests that check what the store reported. */
export function recordingLogger(): { warnings: { message: string; fields?: LogFields }[]; logger: Logger } {
  const warnings: { message: string; fields?: LogFields }[] = [];
  const ignore = () => {};
  return {
    warnings,
    logger: {
      debug: ignore,
      info: ignore,
      error: ignore,
      warn: (message: string, fields?: LogFields) => void warnings.push({ message, fields }),
    },
  };
}
