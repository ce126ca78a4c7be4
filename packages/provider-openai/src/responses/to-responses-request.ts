import type { AssistantMessage, ImageBlock, ModelRequest, TextBlock } from '@agent-core/core';
import type {
  ResponseCreateParamsStreaming,
  ResponseFunctionCallOutputItemList,
  ResponseInputContent,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import { isReasoningModel } from '../model-info.js';
import type { OpenAIReasoningEffort } from '../openai-options.js';
import { decodeReasoningSignature } from './reasoning-signature.js';

/** Settings of the provider that shape a Responses request. */
export interface ResponsesRequestSettings {
  providerName: string;
  reasoningEffort: OpenAIReasoningEffort | undefined;
}

function dataUrl(image: ImageBlock): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

function inputContent(blocks: readonly (TextBlock | ImageBlock)[]): ResponseInputContent[] {
  return blocks.map(
    (block): ResponseInputContent =>
      block.type === 'text'
        ? { type: 'input_text', text: block.text }
        : { type: 'input_image', image_url: dataUrl(block), detail: 'auto' },
  );
}

/**
 * Earlier assistant text as an input item. Servers other than OpenAI classify
 * items by `type` alone (llama.cpp refuses an item without one), and an assistant
 * message's text must be `output_text` parts: OpenAI refuses `input_text` there,
 * and llama.cpp reads a plain string as `input_text`.
 */
function assistantText(text: string): ResponseInputItem {
  // The SDK types an assistant message with output parts as a response's own output, which needs
  // an id and a status; as input, the API takes it without them (requests are not stored).
  return {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text }],
  } as unknown as ResponseInputItem;
}

/**
 * The items of an assistant message, in order. Reasoning items go back only
 * to the provider and model that made them, with their encrypted content
 * (requests are not stored, so an id alone would not resolve); any other
 * thinking is dropped.
 */
function assistantItems(
  message: AssistantMessage,
  request: ModelRequest,
  settings: ResponsesRequestSettings,
) {
  const sameModel = message.provider === settings.providerName && message.model === request.model;
  const items: ResponseInputItem[] = [];
  let text: string[] = [];
  const flushText = () => {
    if (text.length === 0) return;
    items.push(assistantText(text.join('')));
    text = [];
  };
  for (const block of message.content) {
    if (block.type === 'text') {
      text.push(block.text);
      continue;
    }
    flushText();
    if (block.type === 'toolCall') {
      items.push({
        type: 'function_call',
        call_id: block.id,
        name: block.name,
        arguments: JSON.stringify(block.input),
      });
      continue;
    }
    const replay = sameModel ? decodeReasoningSignature(block.signature) : undefined;
    if (replay?.encryptedContent === undefined) continue;
    items.push({
      type: 'reasoning',
      id: replay.id,
      summary: block.thinking === '' ? [] : [{ type: 'summary_text', text: block.thinking }],
      encrypted_content: replay.encryptedContent,
    });
  }
  flushText();
  return items;
}

/**
 * Turns core's messages into Responses input items, each with its `type`;
 * tool results pair with their calls by `call_id`.
 */
export function toResponsesInput(
  request: ModelRequest,
  settings: ResponsesRequestSettings,
): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const message of request.messages) {
    if (message.role === 'user') {
      items.push({
        type: 'message',
        role: 'user',
        content: typeof message.content === 'string' ? message.content : inputContent(message.content),
      });
    } else if (message.role === 'assistant') {
      items.push(...assistantItems(message, request, settings));
    } else {
      const output: string | ResponseFunctionCallOutputItemList =
        typeof message.content === 'string'
          ? message.content
          : message.content.every((block) => block.type === 'text')
            ? message.content.map((block) => (block as TextBlock).text).join('\n')
            : (inputContent(message.content) as ResponseFunctionCallOutputItemList);
      items.push({ type: 'function_call_output', call_id: message.toolCallId, output });
    }
  }
  return items;
}

/**
 * Builds the streaming Responses request body. Requests are sent with
 * `store: false`; for reasoning models the encrypted reasoning is asked for so
 * it can be replayed next turn. Responses has no stop sequences: they are not sent.
 */
export function toResponsesRequest(
  request: ModelRequest,
  settings: ResponsesRequestSettings,
): ResponseCreateParamsStreaming {
  const body: ResponseCreateParamsStreaming = {
    model: request.model,
    input: toResponsesInput(request, settings),
    stream: true,
    store: false,
  };
  if (request.system !== undefined && request.system !== '') body.instructions = request.system;
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    }));
    const choice = request.toolChoice;
    if (choice !== undefined) {
      body.tool_choice = typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
    }
  }
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (settings.reasoningEffort !== undefined) {
    body.reasoning = { effort: settings.reasoningEffort, summary: 'auto' };
  }
  if (settings.reasoningEffort !== undefined || isReasoningModel(request.model)) {
    body.include = ['reasoning.encrypted_content'];
  }
  const format = request.responseFormat;
  if (format !== undefined) {
    body.text = {
      format: {
        type: 'json_schema',
        name: format.name,
        schema: format.schema,
        ...(format.description === undefined ? {} : { description: format.description }),
        ...(format.strict === undefined ? {} : { strict: format.strict }),
      },
    };
  }
  return body;
}
