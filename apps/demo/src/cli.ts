#!/usr/bin/env node
// The entry point loads only argument parsing: `--help` and `--version` answer
// without importing core, a store, a provider SDK or OpenTelemetry. Every
// other command is in `main.js`, which imports what it uses when it runs.
import { readFileSync } from 'node:fs';
import { exitCodes } from './exit-codes.js';
import { cliWords } from './output/cli-words.js';
import { parseCliArguments, UsageError } from './parse-args.js';

async function start(argv: readonly string[]): Promise<number> {
  const args = parseCliArguments(argv);
  if (args.command === 'help') {
    const { usage } = await import('./usage.js');
    process.stdout.write(usage);
    return exitCodes.completed;
  }
  if (args.command === 'version') {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    process.stdout.write(`${manifest.version}\n`);
    return exitCodes.completed;
  }
  const { main } = await import('./main.js');
  return main(args);
}

/** One clear line for an error, and its stack trace only with `--debug`; returns the exit code. */
function report(error: unknown, debug: boolean): number {
  const known = (error as Record<symbol, unknown> | null)?.[Symbol.for('agent-core.error')] === true;
  const message = error instanceof Error ? error.message : String(error);
  // Errors of agent-core say what to do; anything else is unexpected, and --debug shows where it came from.
  const hint = known || debug ? '' : ' (run again with --debug for the stack trace)';
  process.stderr.write(`agent-core: ${maskForReport(cliWords(message))}${hint}\n`);
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${maskForReport(error.stack)}\n`);
  if (error instanceof UsageError) return exitCodes.usage;
  const code = (error as { code?: unknown }).code;
  // A configuration or usage problem is code 2; anything else that stops a command is 1.
  return known &&
    (code === 'invalid_config' ||
      code === 'invalid_session_id' ||
      code === 'unknown_name' ||
      code === 'session_not_found')
    ? exitCodes.usage
    : exitCodes.failed;
}

// Error messages may quote a URL with a password in it; the config's own secrets are masked by main.
function maskForReport(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@:]+(?::[^/\s@]*)?@/gi, '$1***@');
}

// A reader that stops early (`agent-core sessions list | head`) closes the pipe: stop quietly, as cat does.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const argv = process.argv.slice(2);
start(argv).then(
  (code) => {
    process.exitCode = code;
    // Interrupted: leave once what was printed is written, without waiting for a stopped tool's
    // timers (a command's SIGKILL grace period) that would keep the process a few seconds more.
    if (code === exitCodes.interrupted)
      process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  },
  (error: unknown) => {
    process.exitCode = report(error, argv.includes('--debug'));
  },
);
