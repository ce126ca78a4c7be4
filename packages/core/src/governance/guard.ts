import type { ToolCallBlock, Usage } from '../messages/messages.js';
import type { AnyTool } from '../tool/tool.js';

/**
 * What a guard answers: `ok`; `warn` (a `guard` event, nothing stops);
 * `block` (this call gets an error result, the run goes on); `pause` (the
 * run stops with `await_user`, like an approval); `kill` (the run ends with
 * a `GuardError`).
 */
export type GuardAction = 'ok' | 'warn' | 'block' | 'pause' | 'kill';

/** An action, alone or with the reason shown in events, results and errors. */
export type GuardVerdict = GuardAction | { action: GuardAction; reason: string };

/** What every observation holds about the run so far. */
export interface GuardRunObservation {
  runId: string;
  turn: number;
  usage: Usage;
  /** `limits.maxTokens`, when set. */
  maxTokens: number | undefined;
  /** Time since the run started, in milliseconds. */
  elapsedMs: number;
  /** Tool calls the guard saw in the last 60 seconds of this run, this one included. */
  toolCallsInLastMinute: number;
}

/** One observation: a tool call about to run (after its input was validated), or a model call about to be made. */
export type GuardObservation =
  | (GuardRunObservation & {
      kind: 'tool_call';
      toolCall: ToolCallBlock;
      tool: AnyTool;
      /** Identical calls (same tool, same input) in a row in the history, this one included. */
      repeats: number;
    })
  | (GuardRunObservation & { kind: 'model_call' });

/**
 * Watches a run's behaviour and answers each observation.
 *
 * Contract:
 * - `check` is synchronous and cheap: it runs before every tool call and model call.
 * - A throw counts as `kill` (fail closed).
 */
export interface Guard {
  readonly name: string;
  check(observation: GuardObservation): GuardVerdict;
}

/** Thresholds of `defaultGuard()`. */
export interface DefaultGuardOptions {
  /** The identical call in a row that is refused with an error result. Default 4. */
  blockRepeatsAt?: number;
  /** The identical call in a row that ends the run. Default 6. */
  killRepeatsAt?: number;
  /** More tool calls than this in a minute pause the run for a person. Default 120. */
  maxToolCallsPerMinute?: number;
  /** Warn before model calls once this share of `limits.maxTokens` is used. Default 0.8. */
  warnAtTokenShare?: number;
  /** End the run once it has run this long, in milliseconds. Default: no limit. */
  maxDurationMs?: number;
}

/**
 * The guard that `guard: true` uses: refuses the 4th identical call in a row
 * and ends the run at the 6th, pauses past 120 tool calls a minute, warns at
 * 80 % of the token budget, and ends the run past `maxDurationMs`.
 *
 * @example
 * const agent = new Agent({ provider, model, tools, guard: defaultGuard({ killRepeatsAt: 4 }) });
 */
export function defaultGuard(options: DefaultGuardOptions = {}): Guard {
  const blockAt = options.blockRepeatsAt ?? 4;
  const killAt = options.killRepeatsAt ?? 6;
  const perMinute = options.maxToolCallsPerMinute ?? 120;
  const warnShare = options.warnAtTokenShare ?? 0.8;
  const maxDurationMs = options.maxDurationMs;
  return {
    name: 'default',
    check(observation) {
      if (maxDurationMs !== undefined && observation.elapsedMs >= maxDurationMs) {
        return {
          action: 'kill',
          reason: `the run has taken ${Math.round(observation.elapsedMs)} ms of its ${maxDurationMs} ms`,
        };
      }
      if (observation.kind === 'model_call') {
        const { maxTokens, usage } = observation;
        if (maxTokens !== undefined && usage.input + usage.output >= maxTokens * warnShare) {
          return {
            action: 'warn',
            reason: `${usage.input + usage.output} of ${maxTokens} tokens (limits.maxTokens) are used`,
          };
        }
        return 'ok';
      }
      const { repeats, toolCall } = observation;
      if (repeats >= killAt) {
        return {
          action: 'kill',
          reason: `'${toolCall.name}' was called ${repeats} times in a row with the same input`,
        };
      }
      if (repeats >= blockAt) {
        return {
          action: 'block',
          reason: `this is call ${repeats} in a row of '${toolCall.name}' with the same input; its result will not change. Use the earlier result or try something else; at ${killAt} the run ends`,
        };
      }
      if (observation.toolCallsInLastMinute > perMinute) {
        return {
          action: 'pause',
          reason: `${observation.toolCallsInLastMinute} tool calls in the last minute, more than ${perMinute}`,
        };
      }
      return 'ok';
    },
  };
}
