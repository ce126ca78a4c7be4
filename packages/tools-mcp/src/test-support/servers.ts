import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ToolContext } from '@agent-core/core';
import type { McpStdioServerConfig } from '../mcp-server-config.js';

/** The test MCP server script (plain JS, so `node` runs it as it is). */
export const testServerPath = fileURLToPath(new URL('./test-server.mjs', import.meta.url));

/** A stdio config for the test server; each extra name adds a tool of that exact name. */
export function stdioServer(extraTools: string[] = []): McpStdioServerConfig {
  return {
    command: process.execPath,
    args: [testServerPath, ...extraTools.flatMap((name) => ['--tool', name])],
  };
}

/** A test server serving streamable HTTP on 127.0.0.1, in its own process. */
export interface HttpTestServer {
  url: string;
  pid: number;
  /** Ends the process and waits for it. */
  stop(): Promise<void>;
}

/** Starts the test server over HTTP on a free port. */
export function startHttpServer(): Promise<HttpTestServer> {
  const child: ChildProcess = spawn(process.execPath, [testServerPath, '--http'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let output = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`test HTTP server exited early (${code})`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /LISTENING (\d+)/.exec(output);
      if (match === null) return;
      resolve({
        url: `http://127.0.0.1:${match[1]}/mcp`,
        pid: child.pid!,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

/** True while a process with that id exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The ids of this process's child processes, zombies included (Linux `ps`), leaving out `ps` itself. */
export function childPids(): number[] {
  try {
    const output = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], {
      encoding: 'utf8',
    });
    return output
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([pid, command]) => pid !== undefined && pid !== '' && command !== 'ps')
      .map(([pid]) => Number(pid));
  } catch {
    // ps exits 1 when there are none.
    return [];
  }
}

/** A tool context for calling a tool's execute directly. */
export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { signal, toolCallId: 'call-1', agent: undefined };
}

/** Resolves once `condition` holds, checking every few milliseconds (the test's own timeout bounds it). */
export async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
