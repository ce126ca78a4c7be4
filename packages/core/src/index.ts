export type {
  AgentMessage,
  AssistantMessage,
  CustomAgentMessages,
  ImageBlock,
  Message,
  StopReason,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  ToolResultMessage,
  Usage,
  UserMessage,
} from './messages/messages.js';
export { isModelMessage, messageText, toolCallsOf } from './messages/messages.js';
export { addUsage, emptyUsage } from './messages/usage.js';
export { historyProblems } from './messages/history-problems.js';

export { AgentError, toAgentError } from './errors/agent-error.js';
export type { AgentErrorOptions } from './errors/agent-error.js';
export { AgentBusyError } from './errors/agent-busy-error.js';
export { ConfigError } from './errors/config-error.js';
export { RegistryError } from './errors/registry-error.js';
export { RunStoppedError } from './errors/run-error.js';

export type {
  JsonSchema,
  ModelEvent,
  ModelInfo,
  ModelRequest,
  Provider,
  StreamOptions,
  ToolChoice,
  ToolSpec,
} from './provider/provider.js';
export { costOf } from './provider/provider.js';
export { ProviderError, parseRetryAfter, providerErrorKindForStatus } from './provider/provider-error.js';
export type { ProviderErrorKind, ProviderErrorOptions } from './provider/provider-error.js';

export type { AnyTool, Tool, ToolContext, ToolInputCheck, ToolOutput, ToolRisk } from './tool/tool.js';
export { defineTool } from './tool/define-tool.js';
export type { ToolDefinition } from './tool/define-tool.js';
export { ToolRegistry } from './tool/tool-registry.js';
export { validateJsonSchema } from './tool/validate-json-schema.js';

export type {
  ModelCallOptions,
  ModelCallResult,
  Orchestrator,
  OrchestratorContext,
  RunEnd,
  RunSettings,
  ToolExecution,
} from './orchestrator/orchestrator.js';

export {
  getDefaultOrchestratorName,
  getOrchestrator,
  getProvider,
  getToolPack,
  listOrchestrators,
  listProviders,
  listToolPacks,
  registerOrchestrator,
  registerProvider,
  registerToolPack,
  setDefaultOrchestrator,
} from './registry/registries.js';
export type {
  OnDuplicate,
  OrchestratorFactory,
  ProviderFactory,
  RegisterOptions,
  ToolPackFactory,
} from './registry/registries.js';

export type { AgentResult, TerminateReason, ToolCallRecord } from './agent/agent-result.js';
export type {
  AgentEvent,
  AgentEventBodies,
  AgentEventInput,
  AgentEventOf,
  AgentEventType,
  EventBase,
  SpanFields,
} from './events/agent-event.js';

export { Agent } from './agent/agent.js';
export type { AgentListener, PromptOptions } from './agent/agent.js';
export type { PromptInput } from './agent/prompt-input.js';
export { AgentRun } from './agent/agent-run.js';
export type {
  AgentHooks,
  AgentOptions,
  RunLimits,
  SystemPromptContext,
  SystemPromptSource,
  ToolCallDecision,
} from './agent/agent-options.js';
export type { RetryPolicy } from './loop/retry-policy.js';
export type { LogFields, Logger } from './logger/logger.js';
export { silentLogger, stderrLogger } from './logger/logger.js';

export type { TraceContext } from './observability/trace-context.js';
export {
  formatTraceparent,
  isSpanId,
  isTraceId,
  parseTraceparent,
  randomSpanId,
  randomTraceId,
} from './observability/trace-context.js';
export type { RedactOptions } from './observability/redact-secrets.js';
export { redactSecrets, redactedText } from './observability/redact-secrets.js';
export type { RunMetrics, ToolMetrics } from './observability/run-metrics.js';
