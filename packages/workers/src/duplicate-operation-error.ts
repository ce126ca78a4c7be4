import { AgentError } from '@agent-core/core';

/**
 * An enqueue reused an operation id that already names other work: another
 * session, or other input. Nothing was written; the operation stored under the
 * id is left as it was. An enqueue repeated with the same session and input is
 * not an error: it answers with the operation already stored.
 */
export class DuplicateOperationError extends AgentError {
  readonly operationId: string;
  /** The session the stored operation runs in. */
  readonly sessionId: string;

  constructor(operationId: string, sessionId: string, detail: string) {
    super(
      'duplicate_operation',
      `Operation '${operationId}' was already enqueued for ${detail}, so this enqueue was refused and nothing was written. An operation id names one piece of work: reuse it only to repeat the same enqueue, and choose a new id for new work.`,
    );
    this.name = 'DuplicateOperationError';
    this.operationId = operationId;
    this.sessionId = sessionId;
  }
}
