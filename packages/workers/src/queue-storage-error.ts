import { AgentError } from '@agent-core/core';

/**
 * The run queue's database could not be reached or refused a statement.
 * `where` names the server and schema (never a password); `retryable` says
 * whether the same call may succeed later without anyone changing anything
 * (a server restarting, a dropped connection). A failed enqueue wrote nothing.
 */
export class QueueStorageError extends AgentError {
  readonly where: string;
  readonly retryable: boolean;

  constructor(where: string, detail: string, options: { retryable: boolean; cause?: unknown }) {
    super(
      'queue_storage',
      `The run queue in ${where} ${detail}. ${options.retryable ? 'Retry once the server is back.' : 'Check the server, the user and its privileges.'} Nothing half-written was left.`,
      { cause: options.cause },
    );
    this.name = 'QueueStorageError';
    this.where = where;
    this.retryable = options.retryable;
  }
}
