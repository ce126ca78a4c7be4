export { jsonHeaders, sseEvent, sseHeaders } from './sse.js';
export {
  anthropicErrorBody,
  anthropicErrorType,
  anthropicReplyEvents,
  anthropicWire,
  messageEnd,
  messageEndEvents,
  messageStart,
  textBlock,
  textBlockEvents,
  textResponse,
  thinkingBlockEvents,
  toolCallResponse,
  toolUseBlock,
  toolUseBlockEvents,
} from './anthropic-wire.js';
export type { AnthropicUsage } from './anthropic-wire.js';
export {
  chatChunk,
  chatDone,
  chatReplyChunks,
  chatUsageChunk,
  chatWire,
  openaiError,
  openaiErrorBody,
} from './openai-chat-wire.js';
export { responsesEvent, responsesReplyEvents, responsesWire } from './openai-responses-wire.js';
export { serveLocally } from './serve-locally.js';
export { calculator } from './calculator.js';
export { eventTypes } from './event-types.js';
export { propertyRuns, propertySettings, propertyTimeoutMs, report, soak } from './soak.js';
export type { PropertySettings } from './soak.js';
export { cutBytes, describeSseFuzz, piecesFetch } from './sse-fuzz.js';
export type { FuzzedStream, SseFuzzOptions } from './sse-fuzz.js';
