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
export type { HistoryProblemsOptions } from './messages/history-problems.js';

export { AgentError, toAgentError } from './errors/agent-error.js';
export type { AgentErrorOptions } from './errors/agent-error.js';
export { AgentBusyError } from './errors/agent-busy-error.js';
export { ConfigError } from './errors/config-error.js';
export { RegistryError } from './errors/registry-error.js';
export { RunStoppedError } from './errors/run-error.js';
export { ApprovalError, type DecidedCall } from './errors/approval-error.js';
export { GuardError } from './errors/guard-error.js';
export { HookError } from './errors/hook-error.js';
export { AgentDefinitionError } from './errors/agent-definition-error.js';
export type { DefinitionIssue } from './errors/agent-definition-error.js';
export { AgentInputError } from './errors/agent-input-error.js';
export { OutputValidationError } from './errors/output-validation-error.js';
export { SubagentError } from './errors/subagent-error.js';
export { ToolPauseRequest } from './governance/tool-pause-request.js';
export { ContextOverflowError } from './errors/context-overflow-error.js';
export type { ContextOverflowDetails } from './errors/context-overflow-error.js';

export type {
  JsonSchema,
  ModelEvent,
  ModelInfo,
  ModelRequest,
  Provider,
  ResponseFormat,
  StreamOptions,
  ToolChoice,
  ToolSpec,
} from './provider/provider.js';
export { costOf } from './provider/provider.js';
export {
  ProviderError,
  isProviderErrorKind,
  isContextOverflowMessage,
  parseRetryAfter,
  providerErrorKindForStatus,
} from './provider/provider-error.js';
export type { ProviderErrorKind, ProviderErrorOptions } from './provider/provider-error.js';
export { providerErrorFromStatus } from './provider/provider-error-from-status.js';
export type { HttpFailureOptions } from './provider/provider-error-from-status.js';
export { toolInputFromJson } from './provider/tool-input-from-json.js';
export type { ToolInputParse } from './provider/tool-input-from-json.js';

export type {
  AnyTool,
  Tool,
  ToolAgent,
  ToolContext,
  ToolEventInput,
  ToolResume,
  ToolInputCheck,
  ToolOutput,
  ToolRisk,
  ToolRunAccess,
} from './tool/tool.js';
export { defineTool } from './tool/define-tool.js';
export { toolContext } from './tool/tool-context.js';
export type { ToolDefinition } from './tool/define-tool.js';
export { ToolRegistry } from './registry/tool-registry.js';
export { validateJsonSchema } from './tool/validate-json-schema.js';

export type {
  ModelCallOptions,
  ModelCallResult,
  Orchestrator,
  OrchestratorContext,
  OrchestratorTool,
  RunEnd,
  RunSettings,
  ToolExecution,
} from './orchestrator/orchestrator.js';
export { ContractError } from './orchestrator/contract-error.js';
export type { ContractRule } from './orchestrator/contract-error.js';

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

export type { AgentResult, TerminateReason, ToolCallRecord } from './result/agent-result.js';
export type {
  AgentEvent,
  AgentEventBodies,
  AgentEventInput,
  AgentEventOf,
  AgentEventType,
  EventBase,
  SpanFields,
} from './events/agent-event.js';
export { isCustomEvent } from './events/custom-event.js';
export type { CustomEvent } from './events/custom-event.js';

export { Agent } from './agent/agent.js';
export type { AgentListener } from './agent/agent.js';
export type { PromptOptions } from './agent/prompt-options.js';
export type { PromptInput } from './agent/prompt-input.js';
export { AgentRun } from './agent/agent-run.js';
export type { AgentHooks, AgentOptions } from './agent/agent-options.js';
export type {
  RunHooks,
  RunLimits,
  RunOptions,
  SystemPromptContext,
  SystemPromptSource,
  ToolCallDecision,
} from './loop/run-options.js';
export type { RetryPolicy } from './loop/retry-policy.js';
export type { LogFields, Logger } from './logger/logger.js';
export { silentLogger, stderrLogger } from './logger/logger.js';
export type { ResumeOptions } from './agent/resume.js';

export type {
  ApprovalDecision,
  HeldToolResult,
  PausedCall,
  PendingApproval,
} from './governance/pending-approval.js';
export type { ApprovalAnswer, ApprovalChoice, ApprovalRequest, Approver } from './governance/approval.js';
export { definePolicy, defaultToolRisk, policies, policyProfileNames } from './governance/policy.js';
export type {
  Policy,
  PolicyDecision,
  PolicyFunction,
  PolicyOption,
  PolicyProfileName,
  PolicyRules,
  PolicyRunInfo,
  PolicyVerdict,
} from './governance/policy.js';
export { defaultGuard } from './governance/guard.js';
export type {
  DefaultGuardOptions,
  Guard,
  GuardAction,
  GuardObservation,
  GuardRunObservation,
  GuardVerdict,
} from './governance/guard.js';
export { parseIntents } from './governance/intent.js';
export type { Intent } from './governance/intent.js';
export { inputHash } from './governance/input-hash.js';
export { canonicalJson } from './governance/canonical-json.js';
export type { BeforeRunContext, BeforeRunHook } from './agent/prepare-run.js';

export { InvalidSessionIdError } from './errors/invalid-session-id-error.js';
export { SessionBusyError } from './errors/session-busy-error.js';
export { SessionConflictError } from './errors/session-conflict-error.js';
export { SessionCorruptError } from './errors/session-corrupt-error.js';
export { SessionNotFoundError } from './errors/session-not-found-error.js';
export { SessionStorageError } from './errors/session-storage-error.js';
export { SessionLeaseLostError } from './errors/session-lease-lost-error.js';
export { InvalidSessionStateError } from './errors/invalid-session-state-error.js';
export type { SessionStorageProblem } from './errors/session-storage-error.js';
export { newSessionState, sessionSchemaVersion, statusAfterRun } from './session/session-state.js';
export type { NewSessionOptions, SessionState, SessionStatus } from './session/session-state.js';
export { checkSessionId } from './session/session-id.js';
export {
  checkSessionEvents,
  checkSessionState,
  loadSessionStateSchema,
  parseSessionState,
  sessionMigrations,
} from './session/parse-session-state.js';
export { checkAppendOptions, checkSaveOptions } from './session/store-call-options.js';
export {
  maxSessionMetadataDepth,
  maxSessionPartDepth,
  sessionDepthProblem,
} from './session/session-depth-problem.js';
export type { SessionDepthProblem } from './session/session-depth-problem.js';
export type { ParseSessionOptions, SessionMigration } from './session/parse-session-state.js';
export type { SessionEvent, SessionLogRecord } from './session/session-event.js';
export type {
  AppendSessionOptions,
  ListSessionsOptions,
  SaveSessionOptions,
  SessionPage,
  SessionLease,
  SessionStore,
} from './session/session-store.js';
export { compareSummaries, pageOfSummaries } from './session/list-cursor.js';
export { advanceSummary, summaryOf, summaryTitleLength } from './session/session-summary.js';
export type { SessionSummary } from './session/session-summary.js';
export { MemorySessionStore } from './session/memory-session-store.js';
export type { RunJournal } from './loop/run-journal.js';
export { SessionJournal } from './session/session-journal.js';
export type { SessionJournalOptions } from './session/session-journal.js';
export { repairInterrupted, replayRecords, restoreSession } from './session/restore-session.js';
export type { RestoredSession } from './session/restore-session.js';
export { Session } from './session/session.js';
export { SessionManager } from './session/session-manager.js';
export type {
  SessionAgentFactory,
  SessionAgentOptions,
  SessionManagerOptions,
} from './session/session-manager.js';

export { ContextWindow } from './context/context-window.js';
export type { ContextWindowOptions, Summarize } from './context/context-window.js';
export { estimateTextTokens, estimateTokens } from './context/token-counter.js';
export type { TokenCounter } from './context/token-counter.js';
export { compactMessages } from './context/compact-messages.js';
export type { CompactMessagesInput, CompactionPlan, PinnedMessage } from './context/compact-messages.js';
export { compactionToMessage, isCompactionMessage } from './messages/compaction-message.js';
export type { CompactionMessage } from './messages/compaction-message.js';
export { modelSummarizer } from './context/model-summarizer.js';
export type { ModelSummarizerOptions } from './context/model-summarizer.js';

export { SystemPromptBuilder, promptSectionOrder } from './system-prompt/system-prompt-builder.js';
export type {
  PromptSection,
  PromptSkill,
  SystemPromptBuilderOptions,
} from './system-prompt/system-prompt-builder.js';
export { RuntimeInfo } from './system-prompt/runtime-info.js';
export type { RuntimeInfoOptions } from './system-prompt/runtime-info.js';
export { resolvePromptLayers } from './system-prompt/prompt-layers.js';
export { loadPromptLayers } from './system-prompt/load-prompt-layers.js';
export type { PromptLayerFiles, ReadTextFile } from './system-prompt/load-prompt-layers.js';
export type { PromptLayers } from './system-prompt/prompt-layers.js';
export { renderTemplate } from './system-prompt/render-template.js';
export { TemplateError } from './errors/template-error.js';

export type { Skill, SkillFiles } from './skills/skill.js';
export { skillLimits, skillNameProblem } from './skills/skill-limits.js';
export { checkSkills } from './skills/check-skills.js';
export { normalizeSkillPath } from './skills/normalize-skill-path.js';
export { SkillError } from './skills/skill-error.js';
export type { SkillErrorCode } from './skills/skill-error.js';
export { skillTools } from './skills/skill-tools.js';
export { loadedSkillNames, skillToolNames } from './skills/skill-history.js';
export { renderSkillsSection } from './skills/render-skills-section.js';
export type { SkillSummary } from './skills/render-skills-section.js';
export { preApproveSkillTools } from './skills/pre-approve-skill-tools.js';
export { isSkillEvent } from './skills/skill-event.js';
export type { SkillEventData } from './skills/skill-event.js';

export type { TraceContext } from './trace/trace-context.js';
export {
  formatTraceparent,
  isSpanId,
  isTraceId,
  parseTraceparent,
  randomSpanId,
  randomTraceId,
} from './trace/trace-context.js';
export type { RedactOptions } from './logger/redact-secrets.js';
export { redactSecrets, redactedText } from './logger/redact-secrets.js';
export type { RunMetrics, ToolMetrics } from './result/run-metrics.js';
