import type {
  LanguageModelV3,
  LanguageModelV3Content,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { packageVersion } from '../package-version.js';
import {
  addResult,
  delay,
  deltaText,
  finalAnswer,
  modelLatency,
  onePerDelay,
  promptText,
  replyFor,
  type RunOutcome,
  type Scenario,
  toolDescription,
  toolName,
} from '../scenario.js';
import type { Framework } from './framework.js';

function usage(): LanguageModelV3Usage {
  return {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 0, text: 0, reasoning: 0 },
  };
}

/** A language model like the bare loop's: `doGenerate` returns the reply, `doStream` streams the deltas first. */
function scriptedModel(scenario: Scenario): LanguageModelV3 {
  let calls = 0;
  const content = (call: number): { content: LanguageModelV3Content[]; toolCalls: boolean } => {
    const reply = replyFor(scenario, call);
    const parts: LanguageModelV3Content[] = [];
    if (reply.text !== '') parts.push({ type: 'text', text: reply.text });
    for (const scripted of reply.calls) {
      parts.push({
        type: 'tool-call',
        toolCallId: scripted.id,
        toolName,
        input: JSON.stringify(scripted.input),
      });
    }
    return { content: parts, toolCalls: reply.calls.length > 0 };
  };
  return {
    specificationVersion: 'v3',
    provider: 'scripted',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate() {
      const call = calls++;
      await modelLatency(scenario, call);
      const reply = content(call);
      return {
        content: reply.content,
        finishReason: { unified: reply.toolCalls ? 'tool-calls' : 'stop', raw: undefined },
        usage: usage(),
        warnings: [],
      };
    },
    async doStream() {
      const call = calls++;
      await modelLatency(scenario, call);
      const reply = replyFor(scenario, call);
      const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (reply.text !== '') {
        parts.push({ type: 'text-start', id: 't' });
        for (let index = 0; index < scenario.deltas; index++) {
          parts.push({ type: 'text-delta', id: 't', delta: deltaText });
        }
        if (reply.calls.length === 0) parts.push({ type: 'text-delta', id: 't', delta: finalAnswer });
        parts.push({ type: 'text-end', id: 't' });
      }
      for (const scripted of reply.calls) {
        parts.push({
          type: 'tool-call',
          toolCallId: scripted.id,
          toolName,
          input: JSON.stringify(scripted.input),
        });
      }
      parts.push({
        type: 'finish',
        usage: usage(),
        finishReason: { unified: reply.calls.length > 0 ? 'tool-calls' : 'stop', raw: undefined },
      });
      let index = 0;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        pull(controller) {
          const part = parts[index++];
          if (part === undefined) controller.close();
          else controller.enqueue(part);
        },
      });
      return { stream };
    },
  };
}

const tools = onePerDelay((toolDelayMs) => ({
  [toolName]: tool({
    description: toolDescription,
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: async (input: { a: number; b: number }) => {
      if (toolDelayMs > 0) await delay(toolDelayMs);
      return addResult(input);
    },
  }),
}));

/** The Vercel AI SDK: `generateText` with a step limit, or `streamText` with `fullStream` iterated. */
export function aiSdkFramework(): Framework {
  return {
    id: 'ai-sdk',
    label: 'Vercel AI SDK generateText / streamText',
    version: `ai ${packageVersion('ai')}`,
    streams: true,
    multipleCalls: true,
    async run(scenario: Scenario): Promise<RunOutcome> {
      const model = scriptedModel(scenario);
      const stopWhen = stepCountIs(scenario.steps + 1);
      if (scenario.iterate || scenario.deltas > 0) {
        const result = streamText({ model, tools: tools(scenario), prompt: promptText, stopWhen });
        let events = 0;
        for await (const _part of result.fullStream) events++;
        const response = await result.response;
        return { history: response.messages, text: await result.text, events, retained: result };
      }
      const result = await generateText({ model, tools: tools(scenario), prompt: promptText, stopWhen });
      return { history: result.response.messages, text: result.text, events: 0, retained: result };
    },
  };
}
