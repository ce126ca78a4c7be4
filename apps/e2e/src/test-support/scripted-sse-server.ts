import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** One SSE frame: an optional event name and a JSON body. */
export interface SseFrame {
  event?: string;
  data: unknown;
}

/** A scripted HTTP error instead of a stream: the status and the JSON body, as recorded from the provider. */
export interface ErrorReply {
  status: number;
  json: unknown;
}

/** A local server replying to each POST with the next scripted SSE stream, recording the request bodies. */
export interface ScriptedSseServer {
  url: string;
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 that answers the n-th request with `replies[n]`
 * as `text/event-stream`. `done` adds Chat Completions' closing `data: [DONE]`.
 */
export async function startScriptedSseServer(
  replies: readonly (SseFrame[] | ErrorReply)[],
  options: { basePath: string; done?: boolean },
): Promise<ScriptedSseServer> {
  const requests: Record<string, unknown>[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      requests.push(JSON.parse(body) as Record<string, unknown>);
      const frames = replies[requests.length - 1];
      if (frames === undefined) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { type: 'api_error', message: 'no scripted reply' } }));
        return;
      }
      if (!Array.isArray(frames)) {
        response.writeHead(frames.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(frames.json));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of frames) {
        response.write(
          `${frame.event === undefined ? '' : `event: ${frame.event}\n`}data: ${JSON.stringify(frame.data)}\n\n`,
        );
      }
      response.end(options.done === true ? 'data: [DONE]\n\n' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.basePath}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An Anthropic Messages stream: thinking with a signature, then a tool call or a text answer. */
export function anthropicReply(parts: {
  thinking?: string;
  signature?: string;
  toolCall?: { id: string; name: string; input: object };
  text?: string;
}): SseFrame[] {
  const frames: SseFrame[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          content: [],
          model: 'claude-sonnet-4-5',
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 20, output_tokens: 1 },
        },
      },
    },
  ];
  let index = 0;
  const block = (start: object, deltas: object[]) => {
    frames.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: start },
    });
    for (const delta of deltas)
      frames.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    frames.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index++;
  };
  if (parts.thinking !== undefined) {
    block({ type: 'thinking', thinking: '' }, [
      { type: 'thinking_delta', thinking: parts.thinking },
      { type: 'signature_delta', signature: parts.signature ?? 'sig' },
    ]);
  }
  if (parts.text !== undefined) block({ type: 'text', text: '' }, [{ type: 'text_delta', text: parts.text }]);
  if (parts.toolCall !== undefined) {
    const { id, name, input } = parts.toolCall;
    block({ type: 'tool_use', id, name, input: {} }, [
      { type: 'input_json_delta', partial_json: JSON.stringify(input) },
    ]);
  }
  frames.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: parts.toolCall ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 12 },
    },
  });
  frames.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return frames;
}

/** A Chat Completions stream: reasoning, then a tool call or a text answer, then usage. */
export function chatReply(parts: {
  reasoning?: string;
  toolCall?: { id: string; name: string; input: object };
  text?: string;
}): SseFrame[] {
  const chunk = (delta: object, finish: string | null = null) => ({
    data: {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-5-mini',
      choices: [{ index: 0, delta, finish_reason: finish }],
    },
  });
  const frames: SseFrame[] = [chunk({ role: 'assistant', content: '' })];
  if (parts.reasoning !== undefined) frames.push(chunk({ reasoning_content: parts.reasoning }));
  if (parts.text !== undefined) frames.push(chunk({ content: parts.text }));
  if (parts.toolCall !== undefined) {
    const { id, name, input } = parts.toolCall;
    frames.push(
      chunk({
        tool_calls: [
          { index: 0, id, type: 'function', function: { name, arguments: JSON.stringify(input) } },
        ],
      }),
    );
  }
  frames.push(chunk({}, parts.toolCall ? 'tool_calls' : 'stop'));
  frames.push({
    data: {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-5-mini',
      choices: [],
      usage: { prompt_tokens: 20, completion_tokens: 12, total_tokens: 32 },
    },
  });
  return frames;
}

/** Gives a test file a function that closes each server handed to it after the test that started it. */
export function closeServersAfterEach(): (server: ScriptedSseServer) => ScriptedSseServer {
  const started: ScriptedSseServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
  return (server) => {
    started.push(server);
    return server;
  };
}
