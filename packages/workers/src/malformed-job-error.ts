import { AgentError } from '@agent-core/core';

/**
 * A job of the run queue that a worker cannot run: its payload is not an
 * operation of this package (written by hand, or by another program), or the
 * operation it names is not stored. The worker fails the job for good (it is
 * never retried), with this error's message as the job's `last_error`, and
 * touches no session.
 */
export class MalformedJobError extends AgentError {
  /** The job's id in graphile-worker's jobs table. */
  readonly jobId: string;

  constructor(jobId: string, problem: string) {
    super(
      'malformed_job',
      `Job ${jobId} of the run queue cannot be run: ${problem}. It was failed without retries and no session was touched. Enqueue runs with RunQueue.enqueue(sessionId, input, { operationId }) rather than adding jobs by hand.`,
    );
    this.name = 'MalformedJobError';
    this.jobId = jobId;
  }
}
