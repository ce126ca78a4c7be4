import { AgentError } from '@agent-core/core';

/** `wait` was asked about an operation id that no enqueue stored. */
export class OperationNotFoundError extends AgentError {
  readonly operationId: string;

  constructor(operationId: string) {
    super(
      'operation_not_found',
      `No operation '${operationId}' is in the run queue: it was never enqueued (check the id), or it was pruned.`,
    );
    this.name = 'OperationNotFoundError';
    this.operationId = operationId;
  }
}
