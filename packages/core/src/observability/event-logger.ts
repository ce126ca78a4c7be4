import type { AgentEvent } from '../events/agent-event.js';
import type { LogFields, Logger } from '../logger/logger.js';
import { redactSecrets } from '../logger/redact-secrets.js';
import { roundMs } from '../result/run-metrics.js';

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * Turns a run's events into structured log records: run start and end, each
 * model call attempt, retries, each tool call and errors, every record with
 * the run id, trace id, span id and parent span id, and secrets redacted.
 * Made only when the agent has a logger, so a run without one pays nothing.
 */
export function eventLogger(
  logger: Logger,
  trace: { traceId: string; spanId: string },
): (event: AgentEvent) => void {
  const traceId = trace.traceId;
  const write = (level: Level, message: string, event: AgentEvent, fields: LogFields) => {
    // Records of the run itself (start, end, errors) carry the run's root span.
    const record: LogFields = {
      runId: event.runId,
      traceId,
      spanId: trace.spanId,
      turn: event.turn,
      ...fields,
    };
    logger[level](message, redactSecrets(record));
  };
  return (event) => {
    switch (event.type) {
      case 'agent_start':
        write('info', 'run started', event, {
          ...(event.parentSpanId === undefined ? {} : { parentSpanId: event.parentSpanId }),
          messages: event.messages,
        });
        return;
      case 'message_start':
        write('debug', 'model call started', event, {
          spanId: event.spanId,
          parentSpanId: event.parentSpanId,
          provider: event.provider,
          model: event.model,
          attempt: event.attempt,
        });
        return;
      case 'message_end': {
        const message = event.message;
        const span = { spanId: event.spanId, parentSpanId: event.parentSpanId };
        const fields = { ...span, provider: message.provider, model: message.model };
        if (event.error !== undefined) {
          write('warn', 'model call failed', event, {
            ...fields,
            errorCode: event.error.code,
            kind: event.error.kind,
            status: event.error.status,
            retryable: event.error.retryable,
            error: event.error.message,
          });
        } else {
          write(message.stopReason === 'aborted' ? 'warn' : 'info', 'model call ended', event, {
            ...fields,
            stopReason: message.stopReason,
            ...(message.usage === undefined
              ? {}
              : { inputTokens: message.usage.input, outputTokens: message.usage.output }),
          });
        }
        return;
      }
      case 'retry':
        write('warn', 'model call will be retried', event, {
          spanId: event.spanId,
          parentSpanId: event.parentSpanId,
          provider: event.provider,
          attempt: event.attempt,
          delayMs: Math.round(event.delayMs),
          kind: event.error.kind,
          status: event.error.status,
          error: event.error.message,
        });
        return;
      case 'tool_call_end':
        write(
          event.isError ? 'warn' : 'info',
          event.isError ? 'tool call failed' : 'tool call ended',
          event,
          {
            spanId: event.spanId,
            parentSpanId: event.parentSpanId,
            tool: event.toolCall.name,
            toolCallId: event.toolCall.id,
            isError: event.isError,
            durationMs: roundMs(event.durationMs),
            ...(event.isError && typeof event.result === 'string'
              ? { error: event.result.slice(0, 500) }
              : {}),
          },
        );
        return;
      case 'tool_skipped':
        write('info', 'tool call skipped', event, {
          spanId: event.spanId,
          parentSpanId: event.parentSpanId,
          tool: event.toolCall.name,
          toolCallId: event.toolCall.id,
          reason: event.reason,
        });
        return;
      case 'error':
        write('error', 'run failed', event, { errorCode: event.error.code, error: event.error.message });
        return;
      case 'agent_end': {
        const result = event.result;
        write(result.terminateReason === 'error' ? 'error' : 'info', 'run ended', event, {
          terminateReason: result.terminateReason,
          metrics: result.metrics,
        });
        return;
      }
      default:
        return;
    }
  };
}
