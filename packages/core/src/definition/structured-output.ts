import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import type { DefinitionIssue } from '../errors/agent-definition-error.js';
import { OutputValidationError } from '../errors/output-validation-error.js';
import type { ToolCallBlock, ToolResultMessage } from '../messages/messages.js';
import type { RunEnd } from '../orchestrator/orchestrator.js';
import type { ResponseFormat } from '../provider/provider.js';
import { defineTool } from '../tool/define-tool.js';
import type { AnyTool } from '../tool/tool.js';
import type { OutputConfig } from './agent-definition.js';

/** The default name of the tool the model calls to deliver structured output. */
export const defaultOutputToolName = 'complete_task';

/**
 * The structured output of one run: the output tool (or response format), the
 * attempts the model made, and how the run ends. Made per run by the executor.
 */
export class StructuredOutput {
  readonly agentName: string;
  readonly mode: 'tool' | 'forced' | 'native';
  readonly toolName: string;
  readonly maxAttempts: number;
  /** What the model is asked for: the schema itself, or `{ [outputName]: schema }` when it is not an object. */
  readonly #requested: $ZodType;
  readonly #wrappedAs: string | undefined;
  #responseFormat: ResponseFormat | undefined;
  /** True once valid output arrived. */
  accepted = false;
  output: unknown;
  attempts = 0;
  graceUsed = false;
  issues: DefinitionIssue[] = [];
  /** The model's last attempt, as it sent it: the raw content of the result. */
  raw: string | undefined;

  constructor(agentName: string, config: OutputConfig<unknown>) {
    this.agentName = agentName;
    this.mode = config.mode ?? 'tool';
    this.toolName = config.toolName ?? defaultOutputToolName;
    this.maxAttempts = config.maxAttempts ?? 3;
    const schema = config.schema;
    if (schema._zod.def.type === 'object') {
      this.#requested = schema;
      this.#wrappedAs = undefined;
    } else {
      const outputName = config.outputName ?? 'output';
      this.#requested = z.object({ [outputName]: schema as z.ZodType });
      this.#wrappedAs = outputName;
    }
  }

  /** True when the run should stop: valid output arrived or the attempts ran out. */
  get finished(): boolean {
    return this.accepted || this.attempts >= this.maxAttempts;
  }

  /** The tool the model calls with its output (tool mode). */
  tool(description: string | undefined): AnyTool {
    return defineTool({
      name: this.toolName,
      description:
        description ??
        'Call this once, when the task is done, with your final answer as the arguments. Calling it ends the task.',
      parameters: this.#requested,
      // Core's gate has validated and parsed the input against the schema before this runs.
      execute: (input: Record<string, unknown>) => {
        this.#accept(input);
        return 'Output accepted. The task is complete.';
      },
    });
  }

  /** The response format asking for the schema (native mode). */
  responseFormat(): ResponseFormat {
    if (this.#responseFormat === undefined) {
      const schema = z.toJSONSchema(this.#requested as z.ZodType, { io: 'input', unrepresentable: 'any' });
      delete (schema as Record<string, unknown>).$schema;
      this.#responseFormat = { type: 'json_schema', name: this.toolName, schema };
    }
    return this.#responseFormat;
  }

  /** Counts a failed call of the output tool (tool mode); one that failed for another reason (abort) is not an attempt. */
  observe(call: ToolCallBlock, result: ToolResultMessage): void {
    if (call.name !== this.toolName || !result.isError || this.accepted) return;
    const issues = this.#check(call.input);
    if (issues === undefined) return;
    this.attempts++;
    this.issues = issues;
    this.raw = JSON.stringify(call.input);
  }

  /** Checks a text answer (native mode): accepted, or the problems, counted as an attempt. */
  checkText(text: string): DefinitionIssue[] | undefined {
    this.raw = text;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.attempts++;
      this.issues = [{ path: '(answer)', message: 'not valid JSON' }];
      return this.issues;
    }
    const parsed = this.#parse(value);
    if (parsed.ok) {
      this.#accept(parsed.value as Record<string, unknown>);
      return undefined;
    }
    this.attempts++;
    this.issues = parsed.issues;
    return parsed.issues;
  }

  /** The run's end with the output, or with the raw content, `outputValid: false` and the issues. */
  finish(end: RunEnd, lastText: string): RunEnd {
    if (this.accepted) {
      return { ...end, output: this.output, outputValid: true, text: end.text ?? this.raw ?? lastText };
    }
    const detail =
      this.attempts >= this.maxAttempts
        ? `${this.attempts} invalid attempt${this.attempts === 1 ? '' : 's'} (outputConfig.maxAttempts is ${this.maxAttempts}).`
        : this.attempts > 0
          ? `the run ended (${end.reason}) after ${this.attempts} invalid attempt${this.attempts === 1 ? '' : 's'}.`
          : this.mode !== 'native'
            ? `the run ended (${end.reason}) without a call to ${this.toolName}.`
            : `the run ended (${end.reason}) without an answer.`;
    const raw = lastText !== '' ? lastText : (this.raw ?? '');
    return {
      ...end,
      // Another ending (a limit, an abort) keeps the text core gives it.
      ...(end.reason === 'completed' ? { text: raw } : {}),
      outputValid: false,
      error: end.error ?? new OutputValidationError(this.agentName, this.attempts, this.issues, detail),
    };
  }

  #accept(input: Record<string, unknown>): void {
    this.accepted = true;
    this.raw = JSON.stringify(input);
    this.output = this.#wrappedAs === undefined ? input : input[this.#wrappedAs];
  }

  #check(input: unknown): DefinitionIssue[] | undefined {
    const parsed = this.#parse(input);
    return parsed.ok ? undefined : parsed.issues;
  }

  #parse(input: unknown): { ok: true; value: unknown } | { ok: false; issues: DefinitionIssue[] } {
    try {
      const parsed = (this.#requested as z.ZodType).safeParse(input);
      if (parsed.success) return { ok: true, value: parsed.data };
      return {
        ok: false,
        issues: parsed.error.issues.map((issue) => ({
          path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(output)',
          message: issue.message,
        })),
      };
    } catch (error) {
      // A schema that throws is reported as a problem with the output, never a crash.
      return {
        ok: false,
        issues: [
          {
            path: '(output)',
            message: `the schema failed: ${error instanceof Error ? error.message : String(error)}`,
          },
        ],
      };
    }
  }
}
