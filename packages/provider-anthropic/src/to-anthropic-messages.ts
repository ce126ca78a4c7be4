import type {
  AssistantMessage,
  ImageBlock,
  Message,
  TextBlock,
  ToolResultMessage,
  UserMessage,
} from '@agent-core/core';
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';

/** The provider name written on assistant messages unless the `name` option says otherwise; thinking is replayed only to it. */
export const anthropicProviderName = 'anthropic';

type ImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

function imageParam(block: ImageBlock): ImageBlockParam {
  return {
    type: 'image',
    // The API checks the media type itself and answers 400 with a clear message.
    source: { type: 'base64', media_type: block.mimeType as ImageMediaType, data: block.data },
  };
}

// The API refuses empty text blocks, so they are left out.
function userBlocks(content: string | readonly (TextBlock | ImageBlock)[]): ContentBlockParam[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: ContentBlockParam[] = [];
  for (const block of content) {
    if (block.type === 'text') {
      if (block.text !== '') blocks.push({ type: 'text', text: block.text });
    } else blocks.push(imageParam(block));
  }
  return blocks;
}

function toolResultBlock(message: ToolResultMessage): ToolResultBlockParam {
  const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: message.toolCallId };
  if (typeof message.content === 'string') block.content = message.content;
  else {
    const content: (TextBlockParam | ImageBlockParam)[] = [];
    for (const part of message.content) {
      if (part.type === 'text') {
        if (part.text !== '') content.push({ type: 'text', text: part.text });
      } else content.push(imageParam(part));
    }
    block.content = content;
  }
  if (message.isError) block.is_error = true;
  return block;
}

/**
 * Thinking travels back only to the model that wrote it: the API checks the
 * signature, and another model's or provider's reasoning is dropped rather
 * than turned into text the model would take for its own words.
 */
function assistantBlocks(message: AssistantMessage, model: string, provider: string): ContentBlockParam[] {
  const replayThinking = message.provider === provider && message.model === model;
  const blocks: ContentBlockParam[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      if (block.text !== '') blocks.push({ type: 'text', text: block.text });
    } else if (block.type === 'thinking') {
      if (!replayThinking) continue;
      if (block.redacted === true) blocks.push({ type: 'redacted_thinking', data: block.thinking });
      else if (block.signature !== undefined && block.signature !== '')
        blocks.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    } else {
      blocks.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
    }
  }
  return blocks;
}

// Tool results must open the user message that answers the tool calls, so
// when a user message and tool results are merged the results go first.
function mergeUserBlocks(into: ContentBlockParam[], blocks: ContentBlockParam[]): void {
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      let position = 0;
      while (position < into.length && into[position]?.type === 'tool_result') position++;
      into.splice(position, 0, block);
    } else into.push(block);
  }
}

/**
 * Maps provider-neutral messages to Messages API messages: tool results
 * become `tool_result` blocks in a user message, consecutive messages of one
 * role are merged (the API wants user and assistant turns to alternate), and
 * messages left with no content are dropped. Thinking is replayed only from
 * messages of `provider` (the provider's name) and `model`.
 */
export function toAnthropicMessages(
  messages: readonly Message[],
  model: string,
  provider: string = anthropicProviderName,
): MessageParam[] {
  const result: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  for (const message of messages) {
    let role: 'user' | 'assistant';
    let blocks: ContentBlockParam[];
    if (message.role === 'assistant') {
      role = 'assistant';
      blocks = assistantBlocks(message, model, provider);
    } else if (message.role === 'toolResult') {
      role = 'user';
      blocks = [toolResultBlock(message)];
    } else {
      role = 'user';
      blocks = userBlocks((message as UserMessage).content);
    }
    if (blocks.length === 0) continue;
    const previous = result[result.length - 1];
    if (previous !== undefined && previous.role === role) {
      if (role === 'user') mergeUserBlocks(previous.content, blocks);
      else previous.content.push(...blocks);
    } else result.push({ role, content: blocks });
  }
  return result;
}
