// A small MCP server for the tests, built on the SDK's McpServer.
// Usage: node test-server.mjs [--http] [--tool NAME]... [--hold-stderr]
//   stdio by default; --http serves streamable HTTP on 127.0.0.1 (a free port)
//   and prints `LISTENING <port>` on stdout. Each --tool adds a tool of that
//   exact name (for naming tests) that answers `called NAME`. --hold-stderr
//   starts a helper process that inherits our stderr and outlives us (as a
//   server's own children can), printing `HOLDER <pid>` on stderr; we exit as
//   soon as stdin ends, while the helper keeps the pipe open.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const argv = process.argv.slice(2);
const useHttp = argv.includes('--http');
const extraTools = argv.flatMap((value, index) => (argv[index - 1] === '--tool' ? [value] : []));

// A 1x1 transparent PNG.
const pixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Open HTTP sessions, by id (HTTP mode only). */
const sessions = new Map();

function buildServer() {
  const server = new McpServer({ name: 'agent-core-test-server', version: '1.0.0' });

  server.registerTool(
    'echo',
    { description: 'Echoes the text back', inputSchema: { text: z.string().describe('What to echo') } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  server.registerTool(
    'fail',
    { description: 'Always reports an error', inputSchema: { message: z.string().optional() } },
    async ({ message }) => ({
      content: [{ type: 'text', text: message ?? 'it failed on purpose' }],
      isError: true,
    }),
  );
  server.registerTool(
    'slow',
    { description: 'Answers after a while', inputSchema: { ms: z.number() } },
    async ({ ms }, extra) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: [{ type: 'text', text: 'done' }] }), ms);
        // Stop waiting when the client cancels (timeout or abort), so the process can exit.
        extra.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
      }),
  );
  server.registerTool('garbage', { description: 'Writes garbage on stdout, then answers' }, async () => {
    // What a server with a stray console.log or a binary dump sends: lines that are no JSON-RPC.
    process.stdout.write(
      'this is not JSON-RPC\n{"jsonrpc":"2.0","id":\n\u0000\u00ff\u0001 binary\n[1,2,3]\n{"jsonrpc":"2.0","id":987654,"result":{}}\n',
    );
    return { content: [{ type: 'text', text: 'answered after garbage' }] };
  });
  server.registerTool(
    'hang',
    { description: 'Never answers, and ignores cancellation' },
    async () => new Promise(() => {}),
  );
  server.registerTool('crash', { description: 'Exits the server process at once' }, async () => {
    process.stderr.write('test server: crashing on purpose\n');
    process.exit(3);
  });
  server.registerTool('image', { description: 'Returns a picture' }, async () => ({
    content: [
      { type: 'text', text: 'a pixel' },
      { type: 'image', data: pixel, mimeType: 'image/png' },
    ],
  }));
  server.registerTool('resources', { description: 'Returns every other kind of content' }, async () => ({
    content: [
      { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'note body' } },
      {
        type: 'resource',
        resource: { uri: 'file:///data.bin', mimeType: 'application/octet-stream', blob: 'AAEC' },
      },
      { type: 'resource_link', uri: 'file:///big.log', name: 'big.log', mimeType: 'text/plain' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
    ],
  }));
  server.registerTool('structured', { description: 'Returns only structured content' }, async () => ({
    content: [],
    structuredContent: { answer: 42 },
  }));
  server.registerTool(
    'add_tool',
    {
      description: 'Adds a tool at run time (the server then sends list_changed)',
      inputSchema: { name: z.string() },
    },
    async ({ name }) => {
      // registerTool sends notifications/tools/list_changed by itself once connected.
      server.registerTool(name, { description: `Added at run time: ${name}` }, async () => ({
        content: [{ type: 'text', text: `I am ${name}` }],
      }));
      return { content: [{ type: 'text', text: `added ${name}` }] };
    },
  );
  server.registerTool(
    'environment',
    { description: 'Tells its working directory and environment' },
    async () => ({
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            cwd: process.cwd(),
            value: process.env.TEST_VALUE,
            keys: Object.keys(process.env),
          }),
        },
      ],
    }),
  );
  server.registerTool('sessions', { description: 'Counts the open HTTP sessions' }, async () => ({
    content: [{ type: 'text', text: String(sessions.size) }],
  }));
  for (const name of extraTools) {
    server.registerTool(name, { description: `Extra tool ${name}` }, async () => ({
      content: [{ type: 'text', text: `called ${name}` }],
    }));
  }
  return server;
}

async function readBody(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

async function serveHttp() {
  const http = createServer(async (request, response) => {
    try {
      const sessionId = request.headers['mcp-session-id'];
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (transport === undefined) {
        if (sessionId !== undefined || request.method !== 'POST') {
          response.writeHead(404).end('unknown session');
          return;
        }
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => sessions.set(id, transport),
          onsessionclosed: (id) => sessions.delete(id),
        });
        transport.onclose = () => {
          if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
        };
        await buildServer().connect(transport);
      }
      await transport.handleRequest(request, response, body);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    }
  });
  http.listen(0, '127.0.0.1', () => {
    process.stdout.write(`LISTENING ${http.address().port}\n`);
  });
  // Ends when the test closes our stdin (or kills us).
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

if (argv.includes('--hold-stderr')) {
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.stderr.write(`HOLDER ${holder.pid}\n`);
  holder.unref();
  process.stdin.on('end', () => process.exit(0));
}

if (useHttp) await serveHttp();
else await buildServer().connect(new StdioServerTransport());
