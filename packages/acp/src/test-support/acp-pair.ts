import {
  type AnyMessage,
  type ClientCapabilities,
  type ClientContext,
  client as clientApp,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type Stream,
} from '@agentclientprotocol/sdk';
import { MemorySessionStore, type SessionStore } from '@agent-core/core';
import { type AcpServer, type ServeAcpOptions, serveAcp } from '../index.js';

/** Two in-memory streams crossed: what one side writes, the other reads. */
export function streamPair(): { agent: Stream; client: Stream } {
  const toClient = new TransformStream<AnyMessage, AnyMessage>();
  const toAgent = new TransformStream<AnyMessage, AnyMessage>();
  return {
    agent: { writable: toClient.writable, readable: toAgent.readable },
    client: { writable: toAgent.writable, readable: toClient.readable },
  };
}

/** An editor as the tests drive it: every notification it got, and how it answers permission requests. */
export interface TestEditor {
  context: ClientContext;
  notifications: SessionNotification[];
  permissionRequests: RequestPermissionRequest[];
  server: AcpServer;
  store: SessionStore;
  /** Ends the connection as an editor that quits does. */
  quit(): Promise<void>;
}

/** What the tests' editor does with a permission request. */
export type PermissionHandler = (
  request: RequestPermissionRequest,
  signal: AbortSignal,
) => RequestPermissionResponse | Promise<RequestPermissionResponse>;

/** Serves `options` to an SDK client over in-memory streams and initializes the connection. */
export async function connectEditor(
  options: Omit<ServeAcpOptions, 'stream' | 'store'> & { store?: SessionStore },
  editor: {
    capabilities?: ClientCapabilities;
    permission?: PermissionHandler;
    readTextFile?: (path: string) => string;
    writeTextFile?: (path: string, content: string) => void;
  } = {},
): Promise<TestEditor> {
  const streams = streamPair();
  const store = options.store ?? new MemorySessionStore();
  const server = serveAcp({ ...options, store, stream: streams.agent });
  const notifications: SessionNotification[] = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const app = clientApp({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => {
      notifications.push(params);
    })
    .onRequest('session/request_permission', ({ params, signal }) => {
      permissionRequests.push(params);
      const answer =
        editor.permission ?? (() => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }));
      return answer(params, signal);
    })
    .onRequest('fs/read_text_file', ({ params }) => ({ content: editor.readTextFile?.(params.path) ?? '' }))
    .onRequest('fs/write_text_file', ({ params }) => {
      editor.writeTextFile?.(params.path, params.content);
      return {};
    });
  const connection = app.connect(streams.client);
  await connection.agent.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: editor.capabilities ?? {},
  });
  return {
    context: connection.agent,
    notifications,
    permissionRequests,
    server,
    store,
    async quit() {
      // An editor that quits closes the agent's stdin: its input stream ends.
      connection.close();
      await streams.client.writable.close().catch(() => streams.client.writable.abort());
      await server.closed;
    },
  };
}

/** The updates of one session, in order, without the session id. */
export function updatesOf(notifications: readonly SessionNotification[], sessionId: string) {
  return notifications.filter((notification) => notification.sessionId === sessionId).map((n) => n.update);
}
