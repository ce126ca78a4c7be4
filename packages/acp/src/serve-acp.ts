import { randomUUID } from 'node:crypto';
import { isAbsolute } from 'node:path';
import {
  type AgentContext,
  agent as agentApp,
  type ClientCapabilities,
  type McpServer,
  PROTOCOL_VERSION,
  RequestError,
} from '@agentclientprotocol/sdk';
import { ConfigError, type Session, SessionManager, silentLogger } from '@agent-core/core';
import {
  changedConfig,
  configOptionsOf,
  defaultConfig,
  modesOf,
  offeredConfig,
  offeredPolicies,
} from './config-options.js';
import { editorTextReader } from './edit-diff.js';
import { advertised } from './slash-command.js';
import { stdioStream } from './stdio-stream.js';
import { userContentOf } from './prompt-content.js';
import { ServedSession, type ServedSessionHost } from './served-session.js';
import type { ServeAcpOptions } from './serve-acp-options.js';
import { type AcpSessionConfig, readSessionRecord, recordedCwd } from './session-record.js';
import { clientAccess } from './client-access.js';
import { type Opening, providerOf, sessionAgentOptions } from './session-agent-options.js';
import { toRequestError, unknownSession } from './to-request-error.js';

/** A running ACP server. */
export interface AcpServer {
  /** Resolves once the editor has gone (stdin closed) and every session was put away. */
  readonly closed: Promise<void>;
  /** Closes the connection and puts every session away, as when the editor goes. */
  close(): Promise<void>;
}

/**
 * Serves agent-core sessions to an editor over the Agent Client Protocol (v1,
 * JSON-RPC over newline-delimited stdio by default). Every session is a stored
 * agent-core session: prompts stream as `session/update`s, tool calls that
 * need approval become `session/request_permission`, and `session/load` in
 * another process replays the history and asks again for approvals left waiting.
 * stdout carries only JSON-RPC; give a `logger` that writes to stderr.
 *
 * @example
 * const server = serveAcp({ store: new FileSessionStore({ root }), createAgent: ({ cwd }) => ({ provider, model, tools: fsTools({ root: cwd }) }) });
 * await server.closed;
 */
export function serveAcp(options: ServeAcpOptions): AcpServer {
  if (options.manager === undefined && (options.createAgent === undefined || options.store === undefined)) {
    throw new ConfigError(
      'serveAcp needs createAgent and store, or a manager: e.g. serveAcp({ store, createAgent: (session) => ({ provider, model }) }).',
    );
  }
  const logger = options.logger ?? silentLogger;
  const served = new Map<string, ServedSession>();
  const openings = new Map<string, Opening>();
  let capabilities: ClientCapabilities = {};
  let client: AgentContext | undefined;
  let disconnected = false;

  const host: ServedSessionHost = {
    get client() {
      return client as AgentContext;
    },
    logger,
    get disconnected() {
      return disconnected;
    },
    contextSize(session: Session) {
      const { provider, model } = session.agent.options;
      return provider.modelInfo?.(model)?.contextWindow;
    },
    commands: options.commands ?? [],
    readText: (sessionId: string) => editorTextReader(clientAccess(sessionId, editor)),
  };

  const editor = { capabilities: () => capabilities, client: () => host.client };
  const manager =
    options.manager ??
    new SessionManager({
      store: options.store as NonNullable<ServeAcpOptions['store']>,
      logger,
      agentOptions: sessionAgentOptions(options, {
        opening: (id) => openings.get(id),
        served: (id) => served.get(id),
        access: (id) => clientAccess(id, editor),
      }),
    });

  const requireAuth = () => {
    if (options.auth?.required() === true)
      throw RequestError.authRequired(
        { authMethods: options.auth.methods.map((method) => method.id) },
        'authenticate first: see the agent’s authMethods',
      );
  };

  const checkOpening = (cwd: string, mcpServers: McpServer[] | undefined) => {
    if (!isAbsolute(cwd))
      throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path; got '${cwd}'`);
    for (const server of mcpServers ?? []) {
      const transport = 'type' in server ? server.type : 'stdio';
      const supported =
        options.createAgent !== undefined &&
        (transport === 'stdio' || options.mcpTransports?.[transport] === true);
      if (!supported)
        throw RequestError.invalidParams(
          { mcpServer: server.name, transport },
          `MCP server '${server.name}' uses ${transport}, which this agent does not connect; see mcpCapabilities in the initialize response`,
        );
    }
  };

  const open = async (
    sessionId: string,
    cwd: string,
    mcpServers: McpServer[],
    make: () => Promise<Session>,
  ): Promise<ServedSession> => {
    const opening: Opening = { cwd, mcpServers };
    openings.set(sessionId, opening);
    try {
      const session = await make();
      const record = readSessionRecord(session.metadata, cwd);
      record.cwd = cwd;
      const offered = offeredConfig(options, record.config ?? {});
      if (offered.dropped.length > 0)
        logger.warn(
          `session ${sessionId} was stored with ${offered.dropped.join(' and ')}, which this agent does not offer now; it uses the default instead`,
          { sessionId },
        );
      record.config = offered.config;
      const servedSession = new ServedSession(host, session, record, {
        ...(opening.close === undefined ? {} : { close: opening.close }),
        ...(opening.contextSize === undefined ? {} : { contextSize: opening.contextSize }),
        ...(opening.commands === undefined ? {} : { commands: opening.commands }),
      });
      servedSession.announceCommands(servedSession.commands.map(advertised));
      opening.served = servedSession;
      served.set(sessionId, servedSession);
      return servedSession;
    } catch (error) {
      await opening.close?.();
      throw error;
    } finally {
      openings.delete(sessionId);
    }
  };

  const putAway = async (session: ServedSession) => {
    session.cancel();
    await session.idle();
    served.delete(session.id);
    manager.close(session.id);
    await session.close();
  };

  const require = (sessionId: string): ServedSession => {
    const session = served.get(sessionId);
    if (session === undefined) throw unknownSession(sessionId);
    return session;
  };

  const sessionSetup = (session: ServedSession) => ({
    configOptions: configOptionsOf(options, session.config),
    ...(modesOf(options, session.config) === undefined ? {} : { modes: modesOf(options, session.config) }),
  });

  const afterOpen = (session: ServedSession) => {
    // After the response is written: the editor learns of the session before its updates and requests.
    setImmediate(() => {
      session.announceCommands();
      session.askAgain();
    });
  };

  const applyConfig = async (session: ServedSession, config: AcpSessionConfig): Promise<ServedSession> => {
    if (session.busy)
      throw RequestError.invalidRequest(
        { sessionId: session.id },
        'the session is answering a prompt; change its options after the answer (or cancel it first)',
      );
    const before = session.config;
    if (config.model !== before.model) {
      const choice = options.models?.find((model) => model.id === config.model);
      if (choice !== undefined) session.session.agent.setModel(choice.model, await providerOf(choice));
    }
    await session.storeConfig(config);
    if (config.orchestrator === before.orchestrator) return session;
    // The orchestrator is fixed for an agent's life: the session's agent is made again.
    const { cwd } = session.record;
    const mcpServers = reopenServers.get(session.id) ?? [];
    await putAway(session);
    return open(session.id, cwd, mcpServers, () => manager.get(session.id));
  };
  const reopenServers = new Map<string, McpServer[]>();

  const app = agentApp({ name: 'agent-core' })
    .onRequest('initialize', ({ params }) => {
      capabilities = params.clientCapabilities ?? {};
      const transports = options.createAgent === undefined ? {} : (options.mcpTransports ?? {});
      return {
        protocolVersion: Math.min(params.protocolVersion, PROTOCOL_VERSION),
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: transports.http === true, sse: transports.sse === true },
          sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
        },
        authMethods: options.auth?.methods ?? [],
        agentInfo: options.agentInfo ?? { name: 'agent-core', version: '0.0.0' },
      };
    })
    .onRequest('authenticate', async ({ params }) => {
      const auth = options.auth;
      if (auth === undefined || !auth.methods.some((method) => method.id === params.methodId))
        throw RequestError.invalidParams(
          { methodId: params.methodId },
          `unknown auth method '${params.methodId}'`,
        );
      try {
        await auth.authenticate(params.methodId);
      } catch (error) {
        throw RequestError.authRequired({ methodId: params.methodId }, (error as Error).message);
      }
      return {};
    })
    .onRequest('session/new', async ({ params }) => {
      requireAuth();
      checkOpening(params.cwd, params.mcpServers);
      const sessionId = randomUUID();
      try {
        const session = await open(sessionId, params.cwd, params.mcpServers, () =>
          manager.create({
            id: sessionId,
            metadata: { acp: { cwd: params.cwd, config: defaultConfig(options) } },
          }),
        );
        reopenServers.set(sessionId, params.mcpServers);
        afterOpen(session);
        return { sessionId, ...sessionSetup(session) };
      } catch (error) {
        throw toRequestError(error, sessionId);
      }
    })
    .onRequest('session/load', async ({ params }) => {
      requireAuth();
      checkOpening(params.cwd, params.mcpServers);
      try {
        const already = served.get(params.sessionId);
        // Loading again starts over: the session's agent is made anew with the MCP servers of this request.
        if (already !== undefined) await putAway(already);
        const session = await open(params.sessionId, params.cwd, params.mcpServers, () =>
          manager.get(params.sessionId),
        );
        reopenServers.set(params.sessionId, params.mcpServers);
        session.replay();
        await session.flushed();
        afterOpen(session);
        return sessionSetup(session);
      } catch (error) {
        throw toRequestError(error, params.sessionId);
      }
    })
    .onRequest('session/resume', async ({ params }) => {
      requireAuth();
      checkOpening(params.cwd, params.mcpServers);
      try {
        const already = served.get(params.sessionId);
        if (already !== undefined) return sessionSetup(already);
        const session = await open(params.sessionId, params.cwd, params.mcpServers ?? [], () =>
          manager.get(params.sessionId),
        );
        reopenServers.set(params.sessionId, params.mcpServers ?? []);
        afterOpen(session);
        return sessionSetup(session);
      } catch (error) {
        throw toRequestError(error, params.sessionId);
      }
    })
    .onRequest('session/list', async ({ params }) => {
      try {
        const page = await manager.list({
          ...(params.cursor == null ? {} : { cursor: params.cursor }),
        });
        const sessions = [];
        for (const summary of page.sessions) {
          const cwd = recordedCwd(summary.metadata);
          if (params.cwd != null && cwd !== params.cwd) continue;
          sessions.push({
            sessionId: summary.id,
            cwd: cwd ?? params.cwd ?? '/',
            ...(summary.title === undefined ? {} : { title: summary.title }),
            updatedAt: summary.updatedAt,
          });
        }
        return { sessions, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
      } catch (error) {
        throw toRequestError(error);
      }
    })
    .onRequest('session/close', async ({ params }) => {
      await putAway(require(params.sessionId));
      reopenServers.delete(params.sessionId);
      return {};
    })
    .onRequest('session/delete', async ({ params }) => {
      try {
        const session = served.get(params.sessionId);
        if (session !== undefined) await putAway(session);
        reopenServers.delete(params.sessionId);
        if (!(await manager.remove(params.sessionId))) throw unknownSession(params.sessionId);
        return {};
      } catch (error) {
        throw toRequestError(error, params.sessionId);
      }
    })
    .onRequest('session/prompt', async ({ params }) => {
      const session = require(params.sessionId);
      const content = userContentOf(params.prompt);
      try {
        return await session.prompt(content);
      } catch (error) {
        throw toRequestError(error, params.sessionId);
      }
    })
    .onNotification('session/cancel', ({ params }) => {
      served.get(params.sessionId)?.cancel();
    })
    .onRequest('session/set_config_option', async ({ params }) => {
      const session = require(params.sessionId);
      const config = changedConfig(options, session.config, params.configId, params.value);
      const policyBefore = session.config.policy;
      try {
        const current = await applyConfig(session, config);
        if (config.policy !== undefined && config.policy !== policyBefore)
          current.send({ sessionUpdate: 'current_mode_update', currentModeId: config.policy });
        return { configOptions: configOptionsOf(options, current.config) };
      } catch (error) {
        throw toRequestError(error, params.sessionId);
      }
    })
    .onRequest('session/set_mode', async ({ params }) => {
      const session = require(params.sessionId);
      if (!offeredPolicies(options).includes(params.modeId as never))
        throw RequestError.invalidParams(
          { modeId: params.modeId },
          `unknown mode '${params.modeId}'; the modes are ${offeredPolicies(options).join(', ') || 'none'}`,
        );
      try {
        const current = await applyConfig(session, { ...session.config, policy: params.modeId });
        current.announceConfig(configOptionsOf(options, current.config));
        return {};
      } catch (error) {
        throw toRequestError(error, params.sessionId);
      }
    });

  const connection = app.connect(options.stream ?? stdioStream());
  client = connection.client;
  const closed = connection.closed.then(async () => {
    disconnected = true;
    // A run waiting for the editor's answer keeps its approval stored; any other run is stopped.
    await Promise.all([...served.values()].map((session) => putAwayAfterDisconnect(session)));
  });
  const putAwayAfterDisconnect = async (session: ServedSession) => {
    if (!session.asking) session.cancel();
    await session.idle();
    served.delete(session.id);
    manager.close(session.id);
    await session
      .close()
      .catch((error: unknown) =>
        logger.warn('closing a session failed', { sessionId: session.id, error: String(error) }),
      );
  };
  return {
    closed,
    async close() {
      connection.close();
      await closed;
    },
  };
}
