import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  type ClientCapabilities,
  type ClientContext,
  client as clientApp,
  ndJsonStream,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { EditorTerminals } from './editor-terminals.js';

const cli = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));

/** How the test editor answers a permission request; it may wait on the signal forever. */
export type PermissionAnswer = (
  request: RequestPermissionRequest,
  signal: AbortSignal,
) => RequestPermissionResponse | Promise<RequestPermissionResponse>;

/** `agent-core acp` as a child process, driven by the official ACP client over its stdio. */
export interface AcpProcess {
  child: ChildProcess;
  agent: ClientContext;
  notifications: SessionNotification[];
  permissionRequests: RequestPermissionRequest[];
  /** Everything the server wrote on stderr. */
  stderr(): string;
  /** The updates a session got so far. */
  updates(sessionId: string): SessionUpdate[];
  /** Resolves with the first update (from now on or already there) that matches. */
  waitForUpdate(sessionId: string, match: (update: SessionUpdate) => boolean): Promise<SessionUpdate>;
  /** Closes stdin, as an editor that quits does, and resolves with the exit code. */
  quit(): Promise<number | null>;
  terminals: EditorTerminals;
}

/** Options of the test editor. */
export interface EditorOptions {
  dataDir: string;
  cwd?: string;
  capabilities?: ClientCapabilities;
  permission?: PermissionAnswer;
  files?: Map<string, string>;
  args?: string[];
  env?: Record<string, string>;
}

/** Starts `agent-core acp` with no API key and initializes it as an editor would. */
export async function startAcp(options: EditorOptions): Promise<AcpProcess> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  delete env.ANTHROPIC_API_KEY;
  delete env.OPENAI_API_KEY;
  const child = spawn(
    process.execPath,
    [cli, 'acp', '--data-dir', options.dataDir, ...(options.args ?? [])],
    {
      env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const notifications: SessionNotification[] = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const waiters: {
    sessionId: string;
    match: (update: SessionUpdate) => boolean;
    resolve: (update: SessionUpdate) => void;
  }[] = [];
  const terminals = new EditorTerminals();
  const app = clientApp({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => {
      notifications.push(params);
      for (const waiter of [...waiters]) {
        if (waiter.sessionId === params.sessionId && waiter.match(params.update)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(params.update);
        }
      }
    })
    .onRequest('session/request_permission', ({ params, signal }) => {
      permissionRequests.push(params);
      const answer =
        options.permission ?? (() => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }));
      return answer(params, signal);
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      const content = options.files?.get(params.path);
      if (content === undefined) throw new Error(`no buffer for ${params.path}`);
      return { content };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      options.files?.set(params.path, params.content);
      return {};
    })
    .onRequest('terminal/create', ({ params }) => terminals.create(params))
    .onRequest('terminal/output', ({ params }) => terminals.output(params.terminalId))
    .onRequest('terminal/wait_for_exit', ({ params }) => terminals.waitForExit(params.terminalId))
    .onRequest('terminal/kill', ({ params }) => terminals.kill(params.terminalId))
    .onRequest('terminal/release', ({ params }) => terminals.release(params.terminalId));
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout as Readable) as unknown as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  await connection.agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: options.capabilities ?? {},
    clientInfo: { name: 'test-editor', version: '1.0.0' },
  });
  const updates = (sessionId: string) =>
    notifications.filter((notification) => notification.sessionId === sessionId).map((n) => n.update);
  return {
    child,
    agent: connection.agent,
    notifications,
    permissionRequests,
    stderr: () => stderr,
    updates,
    waitForUpdate(sessionId, match) {
      const found = updates(sessionId).find(match);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ sessionId, match, resolve }));
    },
    async quit() {
      connection.close();
      child.stdin?.end();
      const code = await exited;
      await terminals.closeAll();
      return code;
    },
    terminals,
  };
}

/** The pids of every live descendant of `pid`, from /proc (Linux). */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces: the fields after its closing parenthesis are fixed.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while it was read.
    }
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return found;
}

/** True when the process is gone (or a zombie nobody waits for). */
export function isGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Consecutive chunks of one kind merged, and what a golden comparison keeps of each update. */
export function digest(updates: readonly SessionUpdate[]): unknown[] {
  const result: unknown[] = [];
  for (const update of updates) {
    if (update.sessionUpdate === 'usage_update' || update.sessionUpdate === 'available_commands_update')
      continue;
    if (update.sessionUpdate === 'agent_message_chunk' || update.sessionUpdate === 'agent_thought_chunk') {
      const text = update.content.type === 'text' ? update.content.text : `[${update.content.type}]`;
      const last = result.at(-1) as { kind: string; text: string } | undefined;
      if (last?.kind === update.sessionUpdate) last.text += text;
      else result.push({ kind: update.sessionUpdate, text });
      continue;
    }
    if (update.sessionUpdate === 'tool_call')
      result.push({
        kind: 'tool_call',
        id: update.toolCallId,
        title: update.title,
        toolKind: update.kind,
        status: update.status,
      });
    else if (update.sessionUpdate === 'tool_call_update')
      result.push({ kind: 'tool_call_update', id: update.toolCallId, status: update.status });
    else if (update.sessionUpdate === 'plan') result.push({ kind: 'plan', entries: update.entries });
    else result.push({ kind: update.sessionUpdate });
  }
  return result;
}
