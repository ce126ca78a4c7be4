import {
  AgentError,
  type AssistantMessage,
  ConfigError,
  messageText,
  type Orchestrator,
  type OrchestratorContext,
  type RunEnd,
  type TextBlock,
  type ThinkingBlock,
  type ToolCallBlock,
  type ToolSpec,
} from '@agent-core/core';
import { parseReactReply } from './parse-react-reply.js';
import { formatInstructions, protocolSection, type ReactToolSpec, reactToolSpecs } from './react-prompt.js';
import { type ReactStreamSink, ReactStreamSplitter } from './react-stream-splitter.js';
import { ReactTranscript } from './react-transcript.js';

/** Options of `react()`. */
export interface ReactOptions {
  /**
   * Malformed replies in a row that are sent back for correction; one more
   * ends the run with `error`. Default 2.
   */
  maxFormatRetries?: number;
  /** Stop sequences that end each step. Default `['\nObservation:']`. */
  stopSequences?: readonly string[];
}

// No native tools are offered: one shared empty list, not one per step.
const noTools: readonly ToolSpec[] = [];

interface Settings {
  maxFormatRetries: number;
  stopSequences: readonly string[];
}

/**
 * The ReAct orchestrator, for models without native tool calling: the tools
 * and the Thought / Action / Action Input / Observation / Final Answer format
 * go into the system prompt, each reply is parsed, and its action runs
 * through `ctx.executeTool` like any tool call. One action runs per step.
 *
 * @example
 * const agent = new Agent({ provider, model: 'llama3', tools: [calculator], orchestrator: react() });
 */
export function react(options: ReactOptions = {}): Orchestrator {
  const maxFormatRetries = options.maxFormatRetries ?? 2;
  if (!Number.isInteger(maxFormatRetries) || maxFormatRetries < 0) {
    throw new ConfigError(
      `react(): maxFormatRetries must be a whole number of 0 or more, got ${maxFormatRetries}.`,
    );
  }
  const settings: Settings = {
    maxFormatRetries,
    stopSequences: options.stopSequences ?? ['\nObservation:'],
  };
  return { name: 'react', run: (context) => runReact(context, settings) };
}

async function runReact(context: OrchestratorContext, settings: Settings): Promise<RunEnd> {
  const specs = reactToolSpecs(context.toolSpecs);
  const section = protocolSection(specs);
  let ownPrompt: string | undefined;
  let system = section;
  // One transcript per run: each step converts only what is new, and nothing of it outlives the run.
  const transcript = new ReactTranscript();
  // Made once per run, not per step: the splitter's sink and the model call's callbacks.
  const sink: ReactStreamSink = {
    thought: (delta) => context.emit({ type: 'thinking_delta', delta }),
    answer: (delta) => context.emit({ type: 'text_delta', delta }),
  };
  let splitter: ReactStreamSplitter;
  let streamed = false;
  // A retried attempt starts the reply over: so does the splitter.
  const onAttemptStart = (attempt: number) => {
    if (attempt > 0) splitter = new ReactStreamSplitter(sink);
  };
  const onTextDelta = (delta: string) => {
    streamed = true;
    splitter.push(delta);
  };
  // Call ids are joined into flat strings: a template literal would keep a chain of string pieces per call.
  const callIdPrefix = `react_${context.runId.slice(0, 8)}_`;
  let formatFailures = 0;
  let calls = 0;

  for (;;) {
    const stop = context.nextTurn();
    if (stop !== undefined) return { reason: stop };

    const own = context.systemPrompt();
    // The same system prompt as last step (the usual case) reuses last step's text.
    if (own !== ownPrompt) {
      ownPrompt = own;
      system = own === undefined || own === '' ? section : `${own}\n\n${section}`;
    }
    streamed = false;
    splitter = new ReactStreamSplitter(sink);
    const response = await context.callModel({
      onAttemptStart,
      system,
      messages: transcript.sync(context.modelMessages()),
      tools: noTools,
      stopSequences: settings.stopSequences,
      append: false,
      onTextDelta,
    });
    if (!response.ok) {
      // Like agentic, keep the part of the answer the user already saw.
      const answer = splitter.answer;
      if (response.reason !== 'error' && answer !== '') {
        context.append({
          role: 'assistant',
          content: [{ type: 'text', text: answer }],
          stopReason: 'aborted',
        });
      }
      return { reason: response.reason, error: response.error };
    }
    const message = response.message;
    const reply = messageText(message);
    // A provider that sends no deltas still gets its thought and answer streamed, all at once.
    if (!streamed) splitter.push(reply);
    splitter.end();

    const step = parseReactReply(reply);
    let problem = step.type === 'malformed' ? step.problem : undefined;
    let spec: ReactToolSpec | undefined;
    if (step.type === 'action') {
      spec = findTool(specs, step.tool);
      if (step.input === undefined && spec?.requiresInput === true) {
        problem = `the 'Action Input:' is missing, and tool '${spec.name}' needs one matching ${JSON.stringify(spec.parameters)}.`;
      }
    }

    if (problem !== undefined) {
      formatFailures++;
      context.emit({
        type: 'custom',
        name: 'react_format_error',
        data: { problem, attempt: formatFailures },
      });
      context.endTurn(message);
      if (formatFailures > settings.maxFormatRetries) {
        return {
          reason: 'error',
          error: new AgentError(
            'react_format',
            `The model did not follow the ReAct format ${formatFailures} times in a row (maxFormatRetries: ${settings.maxFormatRetries}). Last problem: ${problem} Use a model that follows instructions better, or the agentic orchestrator if it supports native tool calls.`,
          ),
        };
      }
      transcript.addScratch(
        reply,
        `Observation: Your reply did not follow the format: ${problem}\n\n${formatInstructions(specs)}`,
      );
      if (!context.aborted) context.pollSteering();
      continue;
    }
    formatFailures = 0;
    // Content arrays are built at their final size: a spread into a literal leaves spare slots in the history.
    const thinking: ThinkingBlock | undefined =
      step.thought === '' ? undefined : { type: 'thinking', thinking: step.thought };

    if (step.type === 'action') {
      const call: ToolCallBlock = {
        type: 'toolCall',
        id: [callIdPrefix, calls++].join(''),
        name: spec?.name ?? step.tool,
        input: step.input ?? {},
      };
      const assistant = ownMessage(message, thinking === undefined ? [call] : [thinking, call], 'tool_use');
      context.append(assistant);
      // Steering that arrived while the model was answering: the action does not run.
      if (context.pollSteering().length > 0) {
        context.endTurn(assistant);
        continue;
      }
      if (message.stopReason === 'max_tokens') {
        context.skipTool(
          call,
          'the reply was cut off by the output token limit (max_tokens) before its input was complete, so it was not run. Call it again with a shorter input.',
        );
      } else {
        await context.executeTool(call);
      }
      if (step.extraActions > 0) {
        transcript.sync(context.modelMessages());
        transcript.addScratch(
          '',
          `Note: only the first Action of your reply was run; ${step.extraActions} more were ignored. Write one Action per reply and wait for its Observation.`,
        );
      }
      // As in agentic: steering that arrived during the action is taken before the turn ends.
      if (!context.aborted) context.pollSteering();
      context.endTurn(assistant);
      continue;
    }

    if (step.type !== 'final') continue; // malformed steps were handled above
    const cutOff = message.stopReason === 'max_tokens';
    const text: TextBlock = { type: 'text', text: step.answer };
    const final = ownMessage(
      message,
      thinking === undefined ? [text] : [thinking, text],
      cutOff ? 'max_tokens' : 'end_turn',
    );
    context.append(final);
    context.endTurn(final);
    // Follow-ups first, then steering that arrived too late to interrupt anything.
    if (context.pollFollowUp().length > 0 || context.pollSteering().length > 0) continue;
    return { reason: cutOff ? 'output_limit' : 'completed', text: step.answer };
  }
}

function findTool(specs: readonly ReactToolSpec[], name: string): ReactToolSpec | undefined {
  const lower = name.toLowerCase();
  return specs.find((spec) => spec.name === name) ?? specs.find((spec) => spec.name.toLowerCase() === lower);
}

/**
 * The history's form of a step. No `provider`: its thinking block is the
 * ReAct thought, never a provider's signed reasoning to replay.
 */
function ownMessage(
  reply: AssistantMessage,
  content: AssistantMessage['content'],
  stopReason: AssistantMessage['stopReason'],
): AssistantMessage {
  const message: AssistantMessage = { role: 'assistant', content, stopReason };
  if (reply.usage !== undefined) message.usage = reply.usage;
  return message;
}
