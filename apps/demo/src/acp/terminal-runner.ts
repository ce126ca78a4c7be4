import type { AcpClientAccess } from '@agent-core/acp';
import type { ShellRunner } from '@agent-core/tools-shell';

/**
 * A tools-shell runner that runs each command in a terminal of the editor
 * (`terminal/create`, then `wait_for_exit`, `output`, `kill` on a timeout or
 * an abort, and `release` always), so the user sees it run.
 */
export function terminalRunner(client: AcpClientAccess): ShellRunner {
  return async (command) => {
    const terminal = await client.createTerminal({
      command: command.shell,
      args: ['-c', command.command],
      cwd: command.cwd,
      env: Object.entries(command.env).map(([name, value]) => ({ name, value })),
      outputByteLimit: command.maxOutputBytes * 2,
    });
    let stoppedBy: 'timeout' | 'abort' | undefined;
    const stop = (reason: 'timeout' | 'abort') => {
      stoppedBy ??= reason;
      void terminal.kill().catch(() => undefined);
    };
    const timer = setTimeout(() => stop('timeout'), command.timeoutMs);
    const onAbort = () => stop('abort');
    if (command.signal.aborted) stop('abort');
    else command.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const exit = await terminal.waitForExit();
      const output = await terminal.currentOutput();
      const note = output.truncated ? '[the editor kept only the end of the output]\n' : '';
      return {
        exitCode: exit.exitCode ?? null,
        exitSignal: exit.signal ?? null,
        stoppedBy,
        stdout: `${note}${output.output}`,
      };
    } finally {
      clearTimeout(timer);
      command.signal.removeEventListener('abort', onAbort);
      await terminal.release().catch(() => undefined);
    }
  };
}
