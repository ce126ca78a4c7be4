import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Agent, defineTool } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { instrument } from '@agent-core/otel';
import { openai } from '@agent-core/provider-openai';
import { startTestServer, type TestServer } from '@agent-core/test-postgres';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startAcp } from './acp/test-support/spawn-acp.js';
import { startCompatibleServer } from './test-support/compatible-server.js';
import { makeHome, runCli } from './test-support/run-cli.js';

// Known fake secrets go in through every door (the environment, a config file, a base URL's user
// info, the PostgreSQL URL), and everything the software leaves behind is scanned for them: stdout
// and stderr of every command, every stored file, every database row, every span. None of the
// secrets has the shape of a well-known key, so only the software's knowing them masks them.
const openaiKey = 'local-key-QWERTYUIOP0123456789';
const configKey = 'config-file-key-ASDFGHJKL987654';
const urlPassword = 'url-pass-ZXCVBNM24680';
const headerSecret = 'mcp-header-token-POIUYT13579';

let database: TestServer;
let databasePassword: string;
const closers: (() => Promise<void>)[] = [];
const seen: { where: string; text: string }[] = [];

beforeAll(async () => {
  database = await startTestServer();
  databasePassword = decodeURIComponent(new URL(database.url).password);
}, 120_000);
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
  await database?.stop();
});

function secrets(): string[] {
  return [openaiKey, configKey, urlPassword, headerSecret, databasePassword];
}

/** Keeps a text to scan; the assertion names where a secret was found. */
function keep(where: string, text: string): void {
  seen.push({ where, text });
}

function leaksIn(entries: readonly { where: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { where, text } of entries)
    for (const secret of secrets()) if (text.includes(secret)) found.push(`${secret} in ${where}`);
  return found;
}

/** Every file under `folder` but the one the secrets were written to, read as bytes (latin1, so nothing is dropped by decoding). */
function keepFiles(folder: string, label: string, exceptFile: string): number {
  let count = 0;
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (full !== exceptFile) {
        keep(`${label} ${full}`, readFileSync(full, 'latin1'));
        count++;
      }
    }
  };
  walk(folder);
  return count;
}

/** Every row of every table the store made, as JSON text. */
async function keepRows(): Promise<number> {
  const tables = await database.admin.query<{ table_schema: string; table_name: string }>(
    `SELECT table_schema, table_name FROM information_schema.tables
     WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`,
  );
  let count = 0;
  for (const { table_schema: schema, table_name: table } of tables.rows) {
    const rows = await database.admin.query<{ row: string }>(
      `SELECT row_to_json(t)::text AS row FROM "${schema}"."${table}" t`,
    );
    for (const { row } of rows.rows) keep(`row of ${schema}.${table}`, row);
    count += rows.rows.length;
  }
  return count;
}

/** A server that refuses every request with 401 and echoes back what it was sent, as hostile proxies do. */
async function startRefusingServer(): Promise<string> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      response.writeHead(401, {
        'content-type': 'application/json',
        'x-echo': String(request.headers.authorization),
      });
      response.end(
        JSON.stringify({
          error: {
            message: `Incorrect API key provided: ${request.headers.authorization} for ${request.url}`,
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('secrets never leave the process', { timeout: 120_000 }, () => {
  it('the CLI, agent-core acp, both stores and the otel adapter print, store and trace none of them', async () => {
    const answering = await startCompatibleServer();
    closers.push(answering.close);
    const refusing = await startRefusingServer();
    const answeringHost = new URL(answering.url).host;
    const home = makeHome();
    // A config file with a key of its own, a provider whose base URL carries a password, and an MCP
    // server with a secret header (never reached: the address is a closed port).
    const configFolder = join(home, '.config', 'agent-core');
    mkdirSync(configFolder, { recursive: true });
    writeFileSync(
      join(configFolder, 'config.toml'),
      [
        '[providers.local]',
        'type = "openai"',
        `base_url = "${answering.url}"`,
        `api_key = "${configKey}"`,
        '',
        '[providers.guarded]',
        'type = "openai"',
        `base_url = "http://agent:${urlPassword}@${refusing}/v1"`,
        `api_key = "${configKey}"`,
      ].join('\n'),
    );
    const env = { OPENAI_API_KEY: openaiKey };
    const fileStore = join(home, 'file-store');
    const commands: string[][] = [
      // A run that calls a tool and answers, with everything a user can turn on, on each store.
      [
        'chat',
        'What is 6 * 7?',
        '--provider',
        'local',
        '--json',
        '--log-level',
        'debug',
        '--trace',
        '--store',
        fileStore,
      ],
      [
        'chat',
        'What is 6 * 7?',
        '--provider',
        'local',
        '--log-level',
        'debug',
        '--trace',
        '--store',
        database.url,
      ],
      // The environment's key against a server that refuses it and echoes it back.
      [
        'chat',
        'hello',
        '--provider',
        'openai',
        '--base-url',
        `http://${refusing}/v1`,
        '--log-level',
        'debug',
        '--store',
        fileStore,
      ],
      // A base URL with user info, from the config file and from a flag; fetch refuses such a URL and quotes it.
      [
        'chat',
        'hello',
        '--provider',
        'guarded',
        '--json',
        '--log-level',
        'debug',
        '--debug',
        '--store',
        database.url,
      ],
      [
        'chat',
        'hello',
        '--base-url',
        `http://user:${urlPassword}@${refusing}/v1`,
        '--trace',
        '--store',
        fileStore,
      ],
      ['config', 'show', '--provider', 'guarded', '--store', database.url],
      ['config', 'show', '--base-url', `http://user:${urlPassword}@${refusing}/v1`],
      ['sessions', 'list', '--store', database.url],
      // A database that cannot be reached, with its password in the URL.
      ['sessions', 'list', '--store', `postgres://agent:${databasePassword}@127.0.0.1:9/none`],
    ];
    const exits: (number | null)[] = [];
    for (const args of commands) {
      const finished = await runCli(args, { home, env });
      exits.push(finished.code);
      keep(`stdout of ${args.join(' ')}`, finished.stdout);
      keep(`stderr of ${args.join(' ')}`, finished.stderr);
    }
    // The runs did what they say: two answered, the refused ones failed with a clear error.
    expect(exits.slice(0, 2)).toEqual([0, 0]);
    expect(exits.slice(2, 5)).toEqual([1, 1, 1]);
    expect(
      seen.find((entry) => entry.where.startsWith('stderr of chat hello --provider openai'))?.text,
    ).toMatch(/auth|API key/i);
    expect(seen.some((entry) => entry.text.includes('execute_tool'))).toBe(true);

    // agent-core acp on the PostgreSQL store, the key from the environment, prompting with a tool call.
    const acp = await startAcp({
      dataDir: join(home, 'acp'),
      env: { ...env, XDG_CONFIG_HOME: join(home, '.config') },
      args: ['--provider', 'local', '--store', database.url, '--log-level', 'debug'],
    });
    try {
      const { sessionId } = await acp.agent.request('session/new', { cwd: home, mcpServers: [] });
      const answer = await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'What is 6 * 7?' }],
      });
      expect(answer.stopReason).toBe('end_turn');
      const failing = await acp.agent
        .request('session/new', {
          cwd: home,
          mcpServers: [
            {
              type: 'http',
              name: 'remote',
              url: `http://user:${urlPassword}@127.0.0.1:9/mcp`,
              headers: [{ name: 'Authorization', value: `Bearer ${headerSecret}` }],
            },
          ],
        })
        .catch((error: unknown) => ({ sessionId: undefined, error: JSON.stringify(error) }));
      keep('the answer to session/new with a secret MCP header', JSON.stringify(failing));
      keep('acp notifications', JSON.stringify(acp.notifications));
    } finally {
      await acp.quit();
      keep('acp stderr', acp.stderr());
    }
    expect(answering.requests.length).toBeGreaterThanOrEqual(4);

    // The otel adapter with the SDK's in-memory exporter, on a run that answers and one that is refused.
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
      'test',
    );
    const calculator = defineTool({
      name: 'calculator',
      description: 'evaluates an expression',
      parameters: z.object({ expression: z.string() }),
      execute: () => '42',
    });
    for (const baseURL of [
      answering.url,
      `http://${refusing}/v1`,
      `http://user:${urlPassword}@${refusing}/v1`,
    ]) {
      const agent = new Agent({
        provider: openai({ apiKey: openaiKey, baseURL, name: answeringHost }),
        model: 'gpt-test',
        tools: [calculator],
        orchestrator: agentic(),
        retry: { maxRetries: 0 },
      });
      instrument(agent, { tracer, recordContent: true });
      const result = await agent.prompt('What is 6 * 7?').result();
      keep(`result of a run on ${baseURL.replace(urlPassword, '…')}`, JSON.stringify(result));
    }
    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(5);
    for (const span of spans) keep(`span ${span.name}`, JSON.stringify(spanRecord(span)));

    const files = keepFiles(home, 'file', join(configFolder, 'config.toml'));
    const rows = await keepRows();
    if (process.env.AGENT_CORE_REPORT === '1' || process.env.AGENT_CORE_SOAK === '1')
      console.log(
        `secrets scanned in ${commands.length} CLI runs, ${files} files, ${rows} database rows, ${spans.length} spans (${seen.length} texts in all)`,
      );
    expect(files).toBeGreaterThan(5);
    expect(rows).toBeGreaterThan(5);
    expect(leaksIn(seen)).toEqual([]);
  });
});

describe('a base URL with user info', { timeout: 60_000 }, () => {
  it('authenticates with HTTP Basic (fetch refuses such a URL), and its password is printed nowhere', async () => {
    const server = await startCompatibleServer();
    closers.push(server.close);
    const home = makeHome();
    const url = new URL(server.url);
    const finished = await runCli(
      ['chat', 'What is 6 * 7?', '--base-url', `http://agent:${urlPassword}@${url.host}/v1`, '--no-session'],
      { home },
    );
    expect(finished.code).toBe(0);
    expect(finished.stdout.trim().split('\n').at(-1)).toBe('The answer is 42');
    expect(server.headers.map((headers) => headers.authorization)).toEqual([
      `Basic ${Buffer.from(`agent:${urlPassword}`).toString('base64')}`,
      `Basic ${Buffer.from(`agent:${urlPassword}`).toString('base64')}`,
    ]);
    expect(`${finished.stdout}${finished.stderr}`).not.toContain(urlPassword);
  });
});

/** What an exporter ships of a span: attributes, events with theirs, status, links. */
function spanRecord(span: ReadableSpan): unknown {
  return {
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    status: span.status,
    resource: span.resource.attributes,
  };
}
