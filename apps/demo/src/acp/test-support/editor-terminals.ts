import { type ChildProcess, spawn } from 'node:child_process';
import type {
  CreateTerminalRequest,
  TerminalOutputResponse,
  WaitForTerminalExitResponse,
} from '@agentclientprotocol/sdk';

interface Terminal {
  child: ChildProcess;
  output: string;
  exit: Promise<WaitForTerminalExitResponse>;
  request: CreateTerminalRequest;
}

/** The test editor's terminals: real processes, as an editor runs them. */
export class EditorTerminals {
  readonly #terminals = new Map<string, Terminal>();
  readonly created: CreateTerminalRequest[] = [];
  #next = 0;

  create(request: CreateTerminalRequest): { terminalId: string } {
    this.created.push(request);
    const env = Object.fromEntries((request.env ?? []).map((variable) => [variable.name, variable.value]));
    const child = spawn(request.command, request.args ?? [], {
      cwd: request.cwd ?? undefined,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const terminal: Terminal = {
      child,
      output: '',
      request,
      exit: new Promise((resolve) =>
        child.on('close', (exitCode, signal) => resolve({ exitCode, signal: signal ?? null })),
      ),
    };
    child.stdout?.on('data', (chunk) => (terminal.output += chunk));
    child.stderr?.on('data', (chunk) => (terminal.output += chunk));
    const terminalId = `terminal-${++this.#next}`;
    this.#terminals.set(terminalId, terminal);
    return { terminalId };
  }

  output(terminalId: string): TerminalOutputResponse {
    const terminal = this.#get(terminalId);
    return { output: terminal.output, truncated: false };
  }

  waitForExit(terminalId: string): Promise<WaitForTerminalExitResponse> {
    return this.#get(terminalId).exit;
  }

  kill(terminalId: string): Record<string, never> {
    const child = this.#get(terminalId).child;
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    return {};
  }

  release(terminalId: string): Record<string, never> {
    this.kill(terminalId);
    this.#terminals.delete(terminalId);
    return {};
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.#terminals.keys()]) this.release(id);
  }

  #get(terminalId: string): Terminal {
    const terminal = this.#terminals.get(terminalId);
    if (terminal === undefined) throw new Error(`unknown terminal ${terminalId}`);
    return terminal;
  }
}
