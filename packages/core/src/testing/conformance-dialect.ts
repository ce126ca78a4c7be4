import type { ModelRequest } from '../provider/provider.js';

/** A tool call the kit scripts: one of the kit's tools (or an unknown one), with its input. */
export interface ScriptedCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** A scripted reply that answers the request with text. */
export interface AnswerReply {
  kind: 'answer';
  text: string;
  thinking?: string;
}

/** A scripted reply that asks for tool calls. */
export interface ToolsReply {
  kind: 'tools';
  calls: ScriptedCall[];
  text?: string;
  thinking?: string;
}

/** A scripted model call that fails with a provider error of `error`'s kind, before or after some text. */
export interface FailureReply {
  kind: 'failure';
  error: 'overloaded' | 'network' | 'server' | 'invalid_request';
  afterText: boolean;
}

/** What the kit scripts for one model call, by what it means. */
export type ScriptedReply = AnswerReply | ToolsReply | FailureReply;

/** What the model sends back for one request, in the orchestrator's own protocol. */
export interface DialectReply {
  text?: string;
  thinking?: string;
  /** Native tool calls; a text protocol writes its calls into `text` instead. */
  toolCalls?: ScriptedCall[];
}

/**
 * How an orchestrator's model speaks: turns what the kit means (an answer, or
 * tool calls) into the reply the orchestrator expects for `request`. The
 * default (`nativeDialect`) answers with text and native tool calls; a text
 * protocol such as ReAct writes the calls as text; a multi-phase strategy
 * answers its own requests (a plan, a summary) as it needs, by reading `request`.
 */
export interface ConformanceDialect {
  reply(reply: AnswerReply | ToolsReply, request: ModelRequest): DialectReply;
  /**
   * A reply the orchestrator's own protocol needs for `request` that no
   * scripted reply stands for (a plan, a summary), or undefined: such a
   * request does not use up the script, so the kit's scripts drive the work.
   */
  ownReply?(request: ModelRequest): DialectReply | undefined;
}

/** Text, thinking and native tool calls, as the built-in `agentic` loop and most custom loops expect. */
export const nativeDialect: ConformanceDialect = {
  reply(reply) {
    const out: DialectReply = {};
    if (reply.text !== undefined) out.text = reply.text;
    if (reply.thinking !== undefined) out.thinking = reply.thinking;
    if (reply.kind === 'tools') out.toolCalls = reply.calls;
    return out;
  },
};
