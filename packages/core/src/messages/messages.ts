/**
 * Provider-neutral messages. Everything here is plain JSON: a history can be
 * stored, sent to another process and handed back to any provider as it is.
 */

/** A span of text. */
export interface TextBlock {
  type: 'text';
  text: string;
}

/** An image, base64-encoded. */
export interface ImageBlock {
  type: 'image';
  /** Base64 data without a `data:` prefix. */
  data: string;
  mimeType: string;
}

/**
 * Model reasoning. `signature` is the provider's proof of origin; it is sent
 * back only to the provider and model that produced it.
 */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature?: string;
  /** Set when the provider returned the reasoning encrypted or redacted. */
  redacted?: boolean;
}

/** A request by the model to run a tool. `input` is the parsed JSON arguments. */
export interface ToolCallBlock {
  type: 'toolCall';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** Token counts in tokens, cost in US dollars. Unknown values are `undefined`, never NaN. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost?: number;
}

/** Why the model stopped producing output. */
export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'refusal'
  | 'aborted'
  | 'error';

/** A message from the user. */
export interface UserMessage {
  role: 'user';
  content: string | (TextBlock | ImageBlock)[];
}

/** A message from the model. */
export interface AssistantMessage {
  role: 'assistant';
  content: (TextBlock | ThinkingBlock | ToolCallBlock)[];
  stopReason: StopReason;
  usage?: Usage;
  /** Name of the provider that produced the message (for thinking replay). */
  provider?: string;
  model?: string;
  /** What went wrong, when `stopReason` is `error`. */
  errorMessage?: string;
}

/** The result of one tool call, paired with its call by `toolCallId`. */
export interface ToolResultMessage {
  role: 'toolResult';
  toolCallId: string;
  toolName: string;
  content: string | (TextBlock | ImageBlock)[];
  isError: boolean;
}

/** The messages a model understands. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/**
 * Application-defined message kinds, added by declaration merging:
 *
 * @example
 * declare module '@agent-core/core' {
 *   interface CustomAgentMessages { note: { role: 'note'; text: string } }
 * }
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging
export interface CustomAgentMessages {}

/** Any message in an agent's history: model messages plus the app's own kinds. */
export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];

const modelRoles = new Set(['user', 'assistant', 'toolResult']);

/** True when the message is one a model understands (user, assistant or toolResult). */
export function isModelMessage(message: AgentMessage): message is Message {
  return modelRoles.has((message as { role: string }).role);
}

/** The text of a message's text blocks, joined. */
export function messageText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  let text = '';
  for (const block of message.content) if (block.type === 'text') text += block.text;
  return text;
}

/** The tool calls of an assistant message, in order. */
export function toolCallsOf(message: AssistantMessage): ToolCallBlock[] {
  const calls: ToolCallBlock[] = [];
  for (const block of message.content) if (block.type === 'toolCall') calls.push(block);
  return calls;
}
