import type { AgentContext, ClientCapabilities } from '@agentclientprotocol/sdk';
import type { AcpClientAccess } from './serve-acp-options.js';

/** The connection as a session's client access reads it: what the editor declared, and the context to call it. */
export interface EditorConnection {
  capabilities(): ClientCapabilities;
  client(): AgentContext;
}

/**
 * The editor's file system and terminals for one session. Each call checks
 * the capability the editor declared in `initialize` and fails with a clear
 * error otherwise, so an app can fall back to the disk or a local process.
 */
export function clientAccess(sessionId: string, editor: EditorConnection): AcpClientAccess {
  return {
    get capabilities() {
      return editor.capabilities();
    },
    async readTextFile(path, range) {
      if (editor.capabilities().fs?.readTextFile !== true)
        throw new Error('The editor did not declare fs.readTextFile; read the file from disk instead.');
      const response = await editor.client().request('fs/read_text_file', {
        sessionId,
        path,
        ...(range?.line === undefined ? {} : { line: range.line }),
        ...(range?.limit === undefined ? {} : { limit: range.limit }),
      });
      return response.content;
    },
    async writeTextFile(path, content) {
      if (editor.capabilities().fs?.writeTextFile !== true)
        throw new Error('The editor did not declare fs.writeTextFile; write the file to disk instead.');
      await editor.client().request('fs/write_text_file', { sessionId, path, content });
    },
    createTerminal(request) {
      if (editor.capabilities().terminal !== true)
        return Promise.reject(
          new Error('The editor did not declare terminal; run the command locally instead.'),
        );
      return editor.client().createTerminal({ sessionId, ...request });
    },
  };
}
