import type {
  AssistantMessage,
  ImageBlock,
  ModelRequest,
  TextBlock,
  ToolResultMessage,
} from '@agent-core/core';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { OpenAIReasoningEffort } from '../openai-options.js';

/** Settings of the provider that shape a Chat Completions request. */
export interface ChatRequestSettings {
  providerName: string;
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  reasoningEffort: OpenAIReasoningEffort | undefined;
}

function dataUrl(image: ImageBlock): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

function textOf(content: string | readonly (TextBlock | ImageBlock)[]): string {
  if (typeof content === 'string') return content;
  const pieces: string[] = [];
  for (const block of content) if (block.type === 'text') pieces.push(block.text);
  return pieces.join('\n');
}

function userContent(
  content: string | readonly (TextBlock | ImageBlock)[],
): string | ChatCompletionContentPart[] {
  if (typeof content === 'string') return content;
  return content.map(
    (block): ChatCompletionContentPart =>
      block.type === 'text'
        ? { type: 'text', text: block.text }
        : { type: 'image_url', image_url: { url: dataUrl(block) } },
  );
}

/**
 * An assistant message as Chat Completions takes it. Thinking goes back only
 * as `reasoning_content`, and only to the provider and model that produced it
 * (DeepSeek and vLLM want it back with tool calls); thinking from elsewhere,
 * or signed / encrypted reasoning, is dropped.
 */
function assistantMessage(
  message: AssistantMessage,
  request: ModelRequest,
  settings: ChatRequestSettings,
): ChatCompletionAssistantMessageParam | undefined {
  const sameModel = message.provider === settings.providerName && message.model === request.model;
  const text: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: NonNullable<ChatCompletionAssistantMessageParam['tool_calls']> = [];
  for (const block of message.content) {
    if (block.type === 'text') text.push(block.text);
    else if (block.type === 'toolCall') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input) },
      });
    } else if (
      sameModel &&
      block.signature === undefined &&
      block.redacted !== true &&
      block.thinking !== ''
    ) {
      reasoning.push(block.thinking);
    }
  }
  if (text.length === 0 && toolCalls.length === 0) return undefined;
  const param: ChatCompletionAssistantMessageParam & { reasoning_content?: string } = {
    role: 'assistant',
    content: text.length === 0 ? null : text.join(''),
  };
  if (toolCalls.length > 0) param.tool_calls = toolCalls;
  if (reasoning.length > 0) param.reasoning_content = reasoning.join('');
  return param;
}

function toolImages(result: ToolResultMessage): ImageBlock[] {
  if (typeof result.content === 'string') return [];
  return result.content.filter((block): block is ImageBlock => block.type === 'image');
}

/**
 * Turns core's messages into Chat Completions messages. Tool results become
 * `tool` messages; their images cannot go there, so they follow the run of
 * tool messages as one user message (tool messages must directly follow the
 * assistant message that called them).
 */
export function toChatMessages(
  request: ModelRequest,
  settings: ChatRequestSettings,
): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system !== undefined && request.system !== '') {
    messages.push({ role: 'system', content: request.system });
  }
  let pendingImages: ChatCompletionContentPart[] = [];
  const flushImages = () => {
    if (pendingImages.length === 0) return;
    messages.push({ role: 'user', content: pendingImages });
    pendingImages = [];
  };
  for (const message of request.messages) {
    if (message.role !== 'toolResult') flushImages();
    if (message.role === 'user') {
      messages.push({ role: 'user', content: userContent(message.content) });
    } else if (message.role === 'assistant') {
      const param = assistantMessage(message, request, settings);
      if (param !== undefined) messages.push(param);
    } else {
      const images = toolImages(message);
      let text = textOf(message.content);
      if (images.length > 0) {
        text = `${text}${text === '' ? '' : '\n'}[${images.length} image(s) follow in the next user message]`;
        pendingImages.push({
          type: 'text',
          text: `Images returned by tool ${message.toolName} (${message.toolCallId}):`,
        });
        for (const image of images)
          pendingImages.push({ type: 'image_url', image_url: { url: dataUrl(image) } });
      }
      messages.push({ role: 'tool', tool_call_id: message.toolCallId, content: text });
    }
  }
  flushImages();
  return messages;
}

function toolChoice(choice: ModelRequest['toolChoice']): ChatCompletionToolChoiceOption | undefined {
  if (choice === undefined) return undefined;
  if (typeof choice === 'string') return choice;
  return { type: 'function', function: { name: choice.name } };
}

/** Builds the streaming Chat Completions request body for a model request. */
export function toChatRequest(
  request: ModelRequest,
  settings: ChatRequestSettings,
): ChatCompletionCreateParamsStreaming {
  const body: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: toChatMessages(request, settings),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    const choice = toolChoice(request.toolChoice);
    if (choice !== undefined) body.tool_choice = choice;
  }
  if (request.maxTokens !== undefined) body[settings.maxTokensField] = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) {
    body.stop = [...request.stopSequences];
  }
  if (settings.reasoningEffort !== undefined) body.reasoning_effort = settings.reasoningEffort;
  const format = request.responseFormat;
  if (format !== undefined) {
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: format.name,
        schema: format.schema,
        ...(format.description === undefined ? {} : { description: format.description }),
        ...(format.strict === undefined ? {} : { strict: format.strict }),
      },
    };
  }
  return body;
}
