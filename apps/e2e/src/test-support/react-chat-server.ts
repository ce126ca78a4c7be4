import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Chat Completions request body, as far as these tests read it. */
export interface ChatRequestBody {
  model: string;
  stream?: boolean;
  messages: { role: string; content: string | { type: string; text?: string }[] | null }[];
  tools?: unknown[];
  stop?: string[];
  [key: string]: unknown;
}

/** A local server that speaks OpenAI Chat Completions streaming (SSE). */
export interface ReactChatServer {
  /** Base URL for `openai({ baseURL })`, ending in `/v1`. */
  url: string;
  /** Every request body received, in order. */
  requests: ChatRequestBody[];
  close(): Promise<void>;
}

/** Makes the model's whole reply (before stop sequences) from the request. */
export type ReactModel = (body: ChatRequestBody) => string;

function textOf(content: ChatRequestBody['messages'][number]['content']): string {
  if (typeof content === 'string') return content;
  if (content === null) return '';
  return content.map((part) => part.text ?? '').join('');
}

/**
 * A model without native tool calling: it ignores `tools` and answers in
 * ReAct text. For "What is A*B plus C?" it multiplies, then adds, then
 * answers, reading each result from the last `Observation:`. Like a real
 * model it runs on past its step and writes an Observation of its own; the
 * server's `stop` handling cuts that off.
 */
export const arithmeticReactModel: ReactModel = (body) => {
  const question = body.messages.find((message) => message.role === 'user');
  const match = /(\d+)\s*\*\s*(\d+)\s+plus\s+(\d+)/i.exec(textOf(question?.content ?? ''));
  if (match === null) return 'Thought: I cannot parse this.\nFinal Answer: I do not know.';
  const [, a, b, c] = match;
  const observations = body.messages.filter(
    (message) => message.role === 'user' && textOf(message.content).startsWith('Observation:'),
  );
  const last = textOf(observations.at(-1)?.content ?? '')
    .replace('Observation:', '')
    .trim();
  if (observations.length === 0) {
    return `Thought: First I multiply ${a} by ${b}.\nAction: calculator\nAction Input: {"expression": "${a}*${b}"}\nObservation: 12345\nThought: I guessed that.`;
  }
  if (observations.length === 1) {
    return `Thought: Now I add ${c} to ${last}.\nAction: Calculator\nAction Input: \`\`\`json\n{"expression": "${last}+${c}"}\n\`\`\`\nObservation: made up`;
  }
  return `Thought: I know the answer now.\nFinal Answer: The result is ${last}.`;
};

function chunk(id: string, model: string, delta: object, finishReason: string | null): string {
  const payload = {
    id,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(payload)}\n\n`;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Options of `startReactChatServer`. */
export interface ReactChatServerOptions {
  model?: ReactModel;
  /** Cut replies at the request's `stop` sequences, as most servers do. Default true. */
  honourStop?: boolean;
}

/** Starts the server on 127.0.0.1 and a free port; the model's reply streams in small chunks. */
export async function startReactChatServer(options: ReactChatServerOptions = {}): Promise<ReactChatServer> {
  const model = options.model ?? arithmeticReactModel;
  const honourStop = options.honourStop ?? true;
  const requests: ChatRequestBody[] = [];
  let replies = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `No route for ${request.method} ${request.url}` } }));
      return;
    }
    const body = JSON.parse(await readBody(request)) as ChatRequestBody;
    requests.push(body);
    let text = model(body);
    // As real servers do: the reply ends before the first stop sequence, which is not sent.
    for (const stop of honourStop ? (body.stop ?? []) : []) {
      const at = text.indexOf(stop);
      if (at >= 0) text = text.slice(0, at);
    }
    const id = `chatcmpl-${++replies}`;
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write(chunk(id, body.model, { role: 'assistant', content: '' }, null));
    for (let index = 0; index < text.length; index += 7) {
      response.write(chunk(id, body.model, { content: text.slice(index, index + 7) }, null));
    }
    response.write(chunk(id, body.model, {}, 'stop'));
    const usage = { prompt_tokens: 50, completion_tokens: Math.ceil(text.length / 4), total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    response.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, choices: [], usage })}\n\n`,
    );
    response.end('data: [DONE]\n\n');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
