import type { ModelRequest, ToolChoice, ToolSpec } from '@agent-core/core';
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  ThinkingConfigParam,
  Tool,
  ToolChoice as AnthropicToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import type { AnthropicThinking, PromptCachingOptions } from './anthropic-options.js';
import { anthropicModelInfo } from './model-info.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';

/** The provider settings that shape a request body. */
export interface RequestSettings {
  /** The provider's name, which thinking must come from to be replayed; default `anthropic`. */
  providerName?: string;
  defaultMaxTokens?: number;
  thinking?: AnthropicThinking;
  promptCaching?: boolean | PromptCachingOptions;
}

// A larger default reservation counts against output-token rate limits for
// no benefit, so unknown requests get at most this many tokens.
const defaultMaxTokensCap = 32_000;
const fallbackMaxTokens = 4_096;
const ephemeral = { type: 'ephemeral' } as const;

interface CachePoints {
  system: boolean;
  tools: boolean;
  messages: boolean;
}

function cachePoints(option: boolean | PromptCachingOptions | undefined): CachePoints {
  if (option === undefined || option === false) return { system: false, tools: false, messages: false };
  if (option === true) return { system: true, tools: true, messages: true };
  return { system: option.system ?? true, tools: option.tools ?? true, messages: option.messages ?? true };
}

/** `max_tokens` for a request: its own cap, else the provider default, else the model's output cap (bounded). */
export function resolveMaxTokens(request: ModelRequest, settings: RequestSettings): number {
  if (request.maxTokens !== undefined) return request.maxTokens;
  if (settings.defaultMaxTokens !== undefined) return settings.defaultMaxTokens;
  const info = anthropicModelInfo(request.model);
  return info === undefined ? fallbackMaxTokens : Math.min(info.maxOutputTokens, defaultMaxTokensCap);
}

function toolChoiceParam(choice: ToolChoice): AnthropicToolChoice {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any' };
  return { type: 'tool', name: choice.name };
}

function toolParam(tool: ToolSpec): Tool {
  // The API requires an object schema; a schema without `type` gets one.
  const schema =
    tool.parameters.type === undefined ? { type: 'object', ...tool.parameters } : tool.parameters;
  return { name: tool.name, description: tool.description, input_schema: schema as Tool.InputSchema };
}

function thinkingParam(thinking: AnthropicThinking): ThinkingConfigParam {
  if (thinking === 'adaptive') return { type: 'adaptive' };
  return { type: 'enabled', budget_tokens: thinking.budgetTokens };
}

// Marks the last block of the last message, so the whole conversation so far
// is cached. Only that one message is copied; the rest are shared as built.
function cacheLastMessage(messages: MessageParam[]): void {
  const last = messages[messages.length - 1];
  if (last === undefined || typeof last.content === 'string') return;
  const blocks = [...last.content];
  const index = blocks.length - 1;
  const block = blocks[index];
  if (block === undefined || block.type === 'thinking' || block.type === 'redacted_thinking') return;
  blocks[index] = { ...block, cache_control: ephemeral } as ContentBlockParam;
  messages[messages.length - 1] = { ...last, content: blocks };
}

/**
 * Builds the streaming Messages API body for a request. Pure: the request is
 * not changed, so the same history can be sent again or to another provider.
 */
export function toAnthropicRequest(
  request: ModelRequest,
  settings: RequestSettings,
): MessageCreateParamsStreaming {
  const cache = cachePoints(settings.promptCaching);
  const messages = toAnthropicMessages(request.messages, request.model, settings.providerName);
  if (cache.messages) cacheLastMessage(messages);

  let maxTokens = resolveMaxTokens(request, settings);
  const thinking = settings.thinking;
  // The API wants max_tokens above the thinking budget; the budget is added
  // on top when the cap would not leave room for an answer.
  if (thinking !== undefined && thinking !== 'adaptive' && maxTokens <= thinking.budgetTokens) {
    maxTokens += thinking.budgetTokens;
  }

  const body: MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: maxTokens,
    messages,
    stream: true,
  };
  if (request.system !== undefined && request.system !== '') {
    if (cache.system) {
      const block: TextBlockParam = { type: 'text', text: request.system, cache_control: ephemeral };
      body.system = [block];
    } else body.system = request.system;
  }
  if (request.tools !== undefined && request.tools.length > 0) {
    const tools = request.tools.map(toolParam);
    const lastIndex = tools.length - 1;
    if (cache.tools) tools[lastIndex] = { ...tools[lastIndex]!, cache_control: ephemeral };
    body.tools = tools;
    if (request.toolChoice !== undefined) body.tool_choice = toolChoiceParam(request.toolChoice);
  }
  if (thinking !== undefined) body.thinking = thinkingParam(thinking);
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) {
    body.stop_sequences = [...request.stopSequences];
  }
  return body;
}
