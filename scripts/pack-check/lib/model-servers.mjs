// Local stand-ins for the Anthropic Messages API and the OpenAI Chat Completions
// API on 127.0.0.1, speaking their streaming wire formats, so the installed
// provider packages run offline through their real SDKs.
//
// Each reply is decided from the request alone, so combinations can run in parallel:
// - the first user message `call <tool> <json>` asks for that native tool call;
// - `react <tool> <json>` answers in ReAct text (Thought / Action / Action Input);
// - once a tool result (or a ReAct `Observation:`) is in the history, the reply is
//   `Done: <that result>`, so a script can see that the tool really ran.
import { createServer } from 'node:http';

/** @typedef {{ anthropicBaseUrl: string, openaiBaseUrl: string, close: () => Promise<void> }} ModelServers */

/** @returns {Promise<ModelServers>} */
export async function startModelServers() {
  const server = createServer(async (request, response) => {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    /** @type {any} */
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      body = {};
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (request.method === 'POST' && path === '/anthropic/v1/messages') return anthropicReply(body, response);
    if (request.method === 'POST' && path === '/openai/v1/chat/completions')
      return openaiReply(body, response);
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { type: 'not_found_error', message: `no route ${path}` } }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the model server has no port');
  const base = `http://127.0.0.1:${address.port}`;
  return {
    anthropicBaseUrl: `${base}/anthropic`,
    openaiBaseUrl: `${base}/openai/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** @param {unknown} content */
function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      typeof part?.text === 'string'
        ? part.text
        : typeof part?.content !== 'undefined'
          ? textOf(part.content)
          : '',
    )
    .join('');
}

/** @param {string} prompt */
function directive(prompt) {
  const match = /\b(call|react) (\S+) (\{.*\})/s.exec(prompt);
  if (match === null) return undefined;
  return { kind: match[1], tool: match[2] ?? '', input: match[3] ?? '{}' };
}

/**
 * @param {import('node:http').ServerResponse} response
 * @param {(send: (event: string | undefined, data: unknown) => void) => void} write
 */
function sse(response, write) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  write((event, data) => {
    if (event !== undefined) response.write(`event: ${event}\n`);
    response.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  });
  response.end();
}

/** @param {any} body @param {import('node:http').ServerResponse} response */
function anthropicReply(body, response) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last = messages.at(-1);
  const toolResult = Array.isArray(last?.content)
    ? last.content.find((/** @type {any} */ block) => block?.type === 'tool_result')
    : undefined;
  const wanted = directive(textOf(messages[0]?.content));
  const model = String(body.model ?? 'claude-local');
  sse(response, (send) => {
    send('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_local',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 1 },
      },
    });
    let stopReason = 'end_turn';
    if (toolResult === undefined && wanted?.kind === 'call') {
      stopReason = 'tool_use';
      send('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_local_1', name: wanted.tool, input: {} },
      });
      send('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: wanted.input },
      });
    } else {
      const text =
        toolResult === undefined
          ? 'Hello from the local Anthropic server.'
          : `Done: ${textOf(toolResult.content)}`;
      send('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      });
      send('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text },
      });
    }
    send('content_block_stop', { type: 'content_block_stop', index: 0 });
    send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 7 },
    });
    send('message_stop', { type: 'message_stop' });
  });
}

/** @param {any} body @param {import('node:http').ServerResponse} response */
function openaiReply(body, response) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const toolMessage = messages.findLast((/** @type {any} */ message) => message?.role === 'tool');
  const observation = messages
    .filter((/** @type {any} */ message) => message?.role === 'user')
    .map((/** @type {any} */ message) => textOf(message.content))
    .find((text) => text.startsWith('Observation:'));
  const firstUser = messages.find((/** @type {any} */ message) => message?.role === 'user');
  const wanted = directive(textOf(firstUser?.content));
  const base = {
    id: 'chatcmpl-local',
    object: 'chat.completion.chunk',
    created: 1,
    model: String(body.model),
  };
  /** @param {unknown} delta @param {string | null} finish */
  const chunk = (delta, finish = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  sse(response, (send) => {
    send(undefined, chunk({ role: 'assistant', content: '' }));
    let finish = 'stop';
    if (toolMessage !== undefined) {
      send(undefined, chunk({ content: `Done: ${textOf(toolMessage.content)}` }));
    } else if (observation !== undefined) {
      send(
        undefined,
        chunk({
          content: `Thought: I have what I need.\nFinal Answer: Done: ${observation.slice(12).trim()}`,
        }),
      );
    } else if (wanted?.kind === 'react') {
      send(
        undefined,
        chunk({
          content: `Thought: I should use ${wanted.tool}.\nAction: ${wanted.tool}\nAction Input: ${wanted.input}`,
        }),
      );
    } else if (wanted?.kind === 'call') {
      finish = 'tool_calls';
      send(
        undefined,
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_local_1',
              type: 'function',
              function: { name: wanted.tool, arguments: wanted.input },
            },
          ],
        }),
      );
    } else {
      send(undefined, chunk({ content: 'Hello from the local OpenAI server.' }));
    }
    send(undefined, chunk({}, finish));
    send(undefined, {
      ...base,
      choices: [],
      usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
    });
    send(undefined, '[DONE]');
  });
}
