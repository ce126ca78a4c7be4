import type { AgentRun } from '@agent-core/core';
import type { EventRenderer } from '../output/render-events.js';
import type { OutputStream, Style } from '../output/terminal-style.js';
import type { RunTracer } from '../trace-runs.js';

/** Where a command that runs the agent writes, and how. */
export interface RunIo {
  out: OutputStream;
  errors: OutputStream;
  /** Colours for stderr notices and the summary line. */
  errorStyle: Style;
  /** Colours for stdout (none with `--json`, when piped or with `NO_COLOR`). */
  style: Style;
  json: boolean;
  renderer: EventRenderer | undefined;
  tracer: RunTracer | undefined;
}

/**
 * Waits for a run while Ctrl-C (SIGINT) aborts it; a second Ctrl-C exits at
 * once with code 130. Resolves whether the run was interrupted that way.
 */
export async function untilDone(run: AgentRun): Promise<{ interrupted: boolean }> {
  let interrupted = false;
  const onInterrupt = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    run.abort('interrupted by Ctrl-C');
  };
  process.on('SIGINT', onInterrupt);
  try {
    await run.result();
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  return { interrupted };
}
