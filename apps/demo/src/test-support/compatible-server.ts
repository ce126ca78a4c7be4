import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server received it (the Chat Completions body). */
export interface ReceivedRequest {
  model: string;
  messages: { role: string; content: string | null; tool_calls?: unknown[] }[];
  tools?: { function: { name: string } }[];
}

/** What a scripted server answers one request with: text, tool calls, and the usage it reports. */
export interface ScriptedReply {
  text?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  /** Prompt tokens reported; default the request body's length / 4. */
  promptTokens?: number;
  /** Refuses the request with HTTP 400 and this error message (e.g. a context overflow in OpenAI's words). */
  refuse?: string;
}

/**
 * A minimal OpenAI-compatible Chat Completions server on 127.0.0.1, like a
 * local Ollama: the first reply calls the calculator, the next one answers
 * with the tool result. Streams real `data:` chunks ending in `[DONE]`.
 * `reply: 'empty'` answers every request with no text at all;
 * `reply: 'unauthorized'` answers HTTP 401 as a server that wants a key;
 * a function answers each request as it says, with a usage chunk.
 */
export async function startCompatibleServer(
  options: {
    reply?: 'calculator' | 'empty' | 'unauthorized' | ((request: ReceivedRequest) => ScriptedReply);
  } = {},
): Promise<{
  url: string;
  requests: unknown[];
  /** The headers of each request, in order. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}> {
  const requests: unknown[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const parsed = JSON.parse(body) as { model: string; messages: { role: string; content: string }[] };
      requests.push(parsed);
      headers.push(request.headers);
      const last = parsed.messages.at(-1);
      const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: parsed.model };
      const send = (delta: object, finish: string | null = null) =>
        response.write(
          `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      if (options.reply === 'unauthorized') {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            error: { message: 'Invalid API key', type: 'invalid_request_error', code: null },
          }),
        );
        return;
      }
      const scripted =
        typeof options.reply === 'function' ? options.reply(parsed as unknown as ReceivedRequest) : undefined;
      if (scripted?.refuse !== undefined) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ error: { message: scripted.refuse, type: 'invalid_request_error', code: null } }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (scripted !== undefined) {
        const reply = scripted;
        send({ role: 'assistant', content: reply.text ?? '' });
        const calls = (reply.toolCalls ?? []).map((call, index) => ({
          index,
          id: `call_${requests.length}_${index}`,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        }));
        if (calls.length > 0) send({ tool_calls: calls });
        send({}, calls.length > 0 ? 'tool_calls' : 'stop');
        const usage = {
          prompt_tokens: reply.promptTokens ?? Math.ceil(body.length / 4),
          completion_tokens: 10,
        };
        response.write(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
      } else if (options.reply === 'empty') {
        send({ role: 'assistant', content: '' });
        send({}, 'stop');
      } else if (last?.role === 'tool') {
        send({ role: 'assistant', content: 'The answer is ' });
        send({ content: last.content });
        send({}, 'stop');
      } else {
        const call = {
          index: 0,
          id: 'call_1',
          type: 'function',
          function: { name: 'calculator', arguments: '{"expression":"6*7"}' },
        };
        send({ role: 'assistant', tool_calls: [call] });
        send({}, 'tool_calls');
      }
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    headers,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
