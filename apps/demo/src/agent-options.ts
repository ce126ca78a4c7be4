import { type AnyTool, type Logger, modelSummarizer, type SessionAgentOptions } from '@agent-core/core';
import { type Ask, approveToolCall } from './approve-tool-call.js';
import type { CliArguments } from './parse-args.js';
import { resolveOrchestrator, resolveProvider, resolveTools } from './resolve-plugins.js';

const systemPrompt =
  'You are a helpful assistant running in the agent-core demo. Use the tools when they help, and answer briefly.';

/**
 * The agent options the command line asks for, resolved once: provider and
 * model, tools, orchestrator, the approval hook, the logger of `--log-level`
 * and a context window when the model's size is known. A plain run and every
 * session's agent factory use the same options.
 */
export async function agentOptions(
  args: CliArguments,
  mcpTools: readonly AnyTool[],
  ask: Ask | undefined,
  logger: Logger | undefined,
): Promise<SessionAgentOptions> {
  const resolved = await resolveProvider(
    args.provider,
    args.model,
    args.baseUrl,
    process.env,
    args.providerName,
  );
  if (resolved.notice !== undefined) process.stderr.write(`${resolved.notice}\n`);
  const { provider, model } = resolved;
  // A window needs a budget: without the model's context size (the offline model,
  // an unknown model on a compatible server) the history is sent whole.
  const windowed = !args.noCompact && provider.modelInfo?.(model) !== undefined;
  return {
    provider,
    model,
    systemPrompt,
    tools: [...(await resolveTools(args.tools, process.cwd())), ...mcpTools],
    orchestrator: await resolveOrchestrator(args.orchestrator),
    hooks: { beforeToolCall: approveToolCall({ yes: args.yes, ask }) },
    ...(logger === undefined ? {} : { logger }),
    ...(windowed ? { contextWindow: { summarize: modelSummarizer(provider, model) } } : {}),
  };
}
