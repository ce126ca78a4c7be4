/**
 * Every OpenTelemetry attribute, span and event name this package writes, in
 * one place: the GenAI semantic conventions are still in development and keep
 * renaming things, so a rename is a change to this file alone.
 */

/** Which generation of the GenAI conventions to emit. */
export type SemconvVersion = 'v1.36' | 'latest';

/** The `OTEL_SEMCONV_STABILITY_OPT_IN` value that asks for the latest experimental GenAI conventions. */
export const latestOptIn = 'gen_ai_latest_experimental';

/**
 * The GenAI conventions the environment asks for: `latest` when
 * `OTEL_SEMCONV_STABILITY_OPT_IN` lists `gen_ai_latest_experimental`, else
 * `v1.36`, as the conventions' transition plan asks. Read when called (not at
 * import) and safely: runtimes without `process` or that refuse env access get `v1.36`.
 */
export function semconvVersionFromEnvironment(): SemconvVersion {
  let value: string | undefined;
  try {
    value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
      ?.OTEL_SEMCONV_STABILITY_OPT_IN;
  } catch {
    // Deno without --allow-env throws on access: treat as unset.
    value = undefined;
  }
  if (typeof value !== 'string') return 'v1.36';
  return value
    .split(',')
    .map((entry) => entry.trim())
    .includes(latestOptIn)
    ? 'latest'
    : 'v1.36';
}

/** Attribute names shared by both generations. */
export const attributes = {
  operationName: 'gen_ai.operation.name',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  usageCacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  agentName: 'gen_ai.agent.name',
  agentId: 'gen_ai.agent.id',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  /** agent-core's own ids, so a span can be matched with events and log records. */
  runId: 'agent_core.run_id',
  coreTraceId: 'agent_core.trace_id',
  coreSpanId: 'agent_core.span_id',
  turn: 'agent_core.turn',
  attempt: 'agent_core.attempt',
  terminateReason: 'agent_core.terminate_reason',
  subagentDepth: 'agent_core.subagent.depth',
} as const;

/** The provider attribute: `gen_ai.system` up to v1.36, `gen_ai.provider.name` since. */
export function providerNameAttribute(version: SemconvVersion): string {
  return version === 'latest' ? 'gen_ai.provider.name' : 'gen_ai.system';
}

/** Content attributes of the latest conventions (opt-in content). */
export const contentAttributes = {
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
} as const;

/** Span events that carried content up to v1.36, by message role, and the attribute holding each body. */
export const contentEvents = {
  system: 'gen_ai.system.message',
  user: 'gen_ai.user.message',
  assistant: 'gen_ai.assistant.message',
  tool: 'gen_ai.tool.message',
  choice: 'gen_ai.choice',
  bodyAttribute: 'gen_ai.event.content',
} as const;

/** Values of `gen_ai.operation.name`. */
export const operations = {
  invokeAgent: 'invoke_agent',
  chat: 'chat',
  executeTool: 'execute_tool',
} as const;

/** Span names: `{operation} {target}`, as the conventions ask. */
export const spanNames = {
  invokeAgent: (agentName: string | undefined) =>
    agentName === undefined ? operations.invokeAgent : `${operations.invokeAgent} ${agentName}`,
  chat: (model: string) => `${operations.chat} ${model}`,
  executeTool: (tool: string) => `${operations.executeTool} ${tool}`,
} as const;

/** Finish reasons of the conventions' output messages, from core's stop reasons. */
export const finishReasons: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_call',
  max_tokens: 'length',
  refusal: 'content_filter',
  aborted: 'error',
  error: 'error',
};
