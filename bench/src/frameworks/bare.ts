import { z } from 'zod';
import {
  addResult,
  delay,
  modelLatency,
  onePerDelay,
  promptText,
  replyFor,
  type RunOutcome,
  type Scenario,
  toolName,
} from '../scenario.js';
import { packageVersion } from '../package-version.js';
import type { Framework } from './framework.js';

// The floor: what a hand-written loop costs. Messages in an array, tool input
// checked with zod's safeParse, nothing else.

interface BareToolCall {
  id: string;
  name: string;
  input: unknown;
}
type BareMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: BareToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string; isError: boolean };

type BareEvent =
  | { type: 'text_delta'; delta: string }
  | { type: 'message'; message: BareMessage }
  | { type: 'done'; message: Extract<BareMessage, { role: 'assistant' }> };

interface BareTool {
  schema: z.ZodType<{ a: number; b: number }>;
  execute(input: { a: number; b: number }): string | Promise<string>;
}

function scriptedModel(scenario: Scenario) {
  let calls = 0;
  return async function* model(_messages: readonly BareMessage[]): AsyncGenerator<BareEvent> {
    const call = calls++;
    await modelLatency(scenario, call);
    const reply = replyFor(scenario, call);
    for (let index = 0; index < scenario.deltas; index++) yield { type: 'text_delta', delta: 'tok ' };
    yield {
      type: 'done',
      message: {
        role: 'assistant',
        content: reply.text,
        toolCalls: reply.calls.map((call) => ({ id: call.id, name: toolName, input: call.input })),
      },
    };
  };
}

async function runTool(tools: Map<string, BareTool>, call: BareToolCall): Promise<BareMessage> {
  const tool = tools.get(call.name);
  if (tool === undefined)
    return { role: 'tool', toolCallId: call.id, content: 'unknown tool', isError: true };
  const parsed = tool.schema.safeParse(call.input);
  if (!parsed.success) {
    return { role: 'tool', toolCallId: call.id, content: parsed.error.message, isError: true };
  }
  return { role: 'tool', toolCallId: call.id, content: await tool.execute(parsed.data), isError: false };
}

/** The bare loop as an async generator of events: the consumer sees every delta and message. */
async function* bareLoop(
  model: ReturnType<typeof scriptedModel>,
  tools: Map<string, BareTool>,
  messages: BareMessage[],
  parallel: boolean,
): AsyncGenerator<BareEvent> {
  for (;;) {
    let reply: Extract<BareMessage, { role: 'assistant' }> | undefined;
    for await (const event of model(messages)) {
      if (event.type === 'done') reply = event.message;
      else yield event;
    }
    if (reply === undefined) throw new Error('the model ended without a reply');
    messages.push(reply);
    yield { type: 'message', message: reply };
    if (reply.toolCalls.length === 0) return;
    if (parallel) {
      const results = await Promise.all(reply.toolCalls.map((call) => runTool(tools, call)));
      for (const result of results) {
        messages.push(result);
        yield { type: 'message', message: result };
      }
    } else {
      for (const call of reply.toolCalls) {
        const result = await runTool(tools, call);
        messages.push(result);
        yield { type: 'message', message: result };
      }
    }
  }
}

/** The scripted model as a plain async function: what a non-streaming model call is. */
function scriptedReply(scenario: Scenario) {
  let calls = 0;
  return async (_messages: readonly BareMessage[]): Promise<Extract<BareMessage, { role: 'assistant' }>> => {
    const call = calls++;
    await modelLatency(scenario, call);
    const reply = replyFor(scenario, call);
    return {
      role: 'assistant',
      content: reply.text,
      toolCalls: reply.calls.map((scripted) => ({ id: scripted.id, name: toolName, input: scripted.input })),
    };
  };
}

/**
 * The bare loop without events, for runs whose consumer only wants the
 * result. `model` is either the streaming model (read to its end) or a plain
 * async function (the `bare-plain` reference row).
 */
async function bareLoopQuiet(
  model: ReturnType<typeof scriptedModel> | ReturnType<typeof scriptedReply>,
  streaming: boolean,
  tools: Map<string, BareTool>,
  messages: BareMessage[],
  parallel: boolean,
): Promise<void> {
  for (;;) {
    let reply: Extract<BareMessage, { role: 'assistant' }> | undefined;
    if (streaming) {
      for await (const event of (model as ReturnType<typeof scriptedModel>)(messages)) {
        if (event.type === 'done') reply = event.message;
      }
      if (reply === undefined) throw new Error('the model ended without a reply');
    } else {
      reply = await (model as ReturnType<typeof scriptedReply>)(messages);
    }
    messages.push(reply);
    if (reply.toolCalls.length === 0) return;
    if (parallel) {
      const results = await Promise.all(reply.toolCalls.map((call) => runTool(tools, call)));
      for (const result of results) messages.push(result);
    } else {
      for (const toolCall of reply.toolCalls) messages.push(await runTool(tools, toolCall));
    }
  }
}

const makeTools = onePerDelay((toolDelayMs) => {
  const schema = z.object({ a: z.number(), b: z.number() });
  return new Map<string, BareTool>([
    [
      toolName,
      {
        schema,
        execute:
          toolDelayMs > 0
            ? (input) => delay(toolDelayMs).then(() => addResult(input))
            : (input) => addResult(input),
      },
    ],
  ]);
});

/**
 * The bare hand-written loop, the floor every ratio divides by. Its model is
 * the same scripted model as every contender's: an async iterable of events
 * ending with the whole message (`plain: true` makes it a plain async function
 * instead, a reference for how much the streaming shape itself costs).
 */
export function bareFramework(options: { plain?: boolean } = {}): Framework {
  const plain = options.plain === true;
  return {
    id: plain ? 'bare-plain' : 'bare',
    label: plain ? 'bare loop, model as a plain async function' : 'bare loop (zod safeParse)',
    version: `zod ${packageVersion('zod')}`,
    streams: !plain,
    multipleCalls: true,
    async run(scenario: Scenario): Promise<RunOutcome> {
      const tools = makeTools(scenario);
      const messages: BareMessage[] = [{ role: 'user', content: promptText }];
      const parallel = scenario.callsPerStep > 1;
      let events = 0;
      if (!plain && scenario.iterate) {
        // A consumer that wants events iterates the loop's generator: every delta and message.
        for await (const _event of bareLoop(scriptedModel(scenario), tools, messages, parallel)) events++;
      } else {
        const model = plain ? scriptedReply(scenario) : scriptedModel(scenario);
        await bareLoopQuiet(model, !plain, tools, messages, parallel);
      }
      const last = messages[messages.length - 1] as Extract<BareMessage, { role: 'assistant' }>;
      return { history: messages, text: last.content, events, retained: messages };
    },
  };
}
