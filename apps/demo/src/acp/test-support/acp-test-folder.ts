import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type AcpProcess, type EditorOptions, startAcp } from './spawn-acp.js';

/** A test's own folder and the `agent-core acp` processes it started, all gone after the test. */
export interface AcpTestFolder {
  /** The test's folder (its real path, as the server reports a cwd); the data dir is `data` inside it. */
  readonly directory: string;
  /** Starts `agent-core acp` on the folder's data dir, with the file's default editor options and then `options`. */
  start(options?: Partial<EditorOptions>): Promise<AcpProcess>;
  /** Opens a session in the folder on `server` and resolves its id. */
  newSession(server: AcpProcess): Promise<string>;
  /** Quits `server` as an editor that closes does, resolves its exit code, and leaves it out of the cleanup. */
  quit(server: AcpProcess): Promise<number | null>;
  /** Closes `resource` (a model server, say) after the test, once its ACP processes have quit; returns it. */
  closeAfter<Resource extends { close(): Promise<unknown> }>(resource: Resource): Resource;
}

/**
 * Gives each test of a file a fresh folder named with `prefix` and quits every server the test
 * started, closes what it handed to `closeAfter`, then removes the folder: the set-up of the ACP
 * process tests.
 */
export function useAcpTestFolder(prefix: string, defaults: Partial<EditorOptions> = {}): AcpTestFolder {
  let directory: string | undefined;
  const started: AcpProcess[] = [];
  const resources: { close(): Promise<unknown> }[] = [];
  beforeEach(async () => {
    directory = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  });
  afterEach(async () => {
    for (const server of started.splice(0)) await server.quit();
    for (const resource of resources.splice(0)) await resource.close();
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  });
  const folder: AcpTestFolder = {
    get directory() {
      if (directory === undefined)
        throw new Error('the test folder is made in beforeEach: use it inside a test');
      return directory;
    },
    async start(options = {}) {
      const server = await startAcp({ dataDir: join(folder.directory, 'data'), ...defaults, ...options });
      started.push(server);
      return server;
    },
    async newSession(server) {
      const { sessionId } = await server.agent.request('session/new', {
        cwd: folder.directory,
        mcpServers: [],
      });
      return sessionId;
    },
    async quit(server) {
      const code = await server.quit();
      started.splice(started.indexOf(server), 1);
      return code;
    },
    closeAfter(resource) {
      resources.push(resource);
      return resource;
    },
  };
  return folder;
}

/** Sends `text` as the prompt of `sessionId` on `server` and resolves the server's answer. */
export function promptText(server: AcpProcess, sessionId: string, text: string) {
  return server.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
}
