import type { ModelCallOptions, ModelCallResult } from '../orchestrator/orchestrator.js';
import type { ModelRequest } from '../provider/provider.js';
import type { ContextWindow } from '../context/context-window.js';
import { fitContext } from './fit-context.js';
import type { RunContext } from './run-context.js';
import { checkTokenBudget } from './token-budget.js';
import { ModelCall } from './model-call.js';

/**
 * Calls the model for one turn: builds the request from the agent's state,
 * streams it while emitting message events, retries retryable failures with
 * backoff (honouring Retry-After), then tries the fallback provider.
 */
export function callModel(context: RunContext, options: ModelCallOptions): Promise<ModelCallResult> {
  const state = context.state;
  let request: ModelRequest;
  try {
    request = buildRequest(context, options);
  } catch (error) {
    // A system prompt or convertToLlm that throws rejects the call, as it always has.
    return Promise.reject(error);
  }
  const window = options.messages === undefined ? state.shared.contextWindow : undefined;
  // The common call goes straight to its attempts: one async frame per model call.
  if (window === undefined && state.shared.options.limits?.maxTokens === undefined)
    return new ModelCall(context, options, request, undefined).start();
  return checkThenCall(context, options, request, window);
}

/** Fits the request to the context window and checks the token budget before the attempts. */
async function checkThenCall(
  context: RunContext,
  options: ModelCallOptions,
  request: ModelRequest,
  window: ContextWindow | undefined,
): Promise<ModelCallResult> {
  const agentOptions = context.state.shared.options;
  if (window !== undefined) {
    const fitted = await fitContext(context, window, request);
    if (!fitted.ok) return fitted.result;
    request = fitted.request;
  }
  const maxTokens = agentOptions.limits?.maxTokens;
  if (maxTokens !== undefined) {
    const overBudget = await checkTokenBudget(context, agentOptions.provider, request, maxTokens);
    if (overBudget !== undefined) return { ok: false, reason: 'max_tokens', error: overBudget };
  }
  return new ModelCall(context, options, request, window).start();
}

function buildRequest(context: RunContext, options: ModelCallOptions): ModelRequest {
  const state = context.state;
  const shared = state.shared;
  const agentOptions = shared.options;
  // The run's copy of the history: a provider that reorders or extends it fails, the history unchanged.
  const messages = options.messages ?? context.modelMessages();

  const system = options.system ?? context.systemPrompt();
  const request: ModelRequest = { model: state.settings.model, messages };
  if (system !== undefined && system !== '') request.system = system;
  const tools = options.tools ?? state.toolSpecs;
  if (tools.length > 0) request.tools = tools;
  if (agentOptions.maxOutputTokens !== undefined) request.maxTokens = agentOptions.maxOutputTokens;
  if (agentOptions.temperature !== undefined) request.temperature = agentOptions.temperature;
  const stopSequences = options.stopSequences ?? agentOptions.stopSequences;
  if (stopSequences !== undefined) request.stopSequences = stopSequences;
  const toolChoice = options.toolChoice ?? agentOptions.toolChoice;
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  if (options.responseFormat !== undefined) request.responseFormat = options.responseFormat;
  return request;
}
