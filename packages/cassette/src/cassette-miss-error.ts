import { AgentError } from '@agent-core/core';
import type { CassetteRequest } from './cassette-data.js';
import { cassetteModeVariable } from './cassette-mode.js';
import { type CassetteDifference, describeDifferences } from './request-differences.js';

/** What `CassetteMissError` is made from. */
export interface CassetteMissDetails {
  /** The cassette's file, when it has one. */
  file?: string;
  /** The request that found no recording, in canonical form. */
  request: CassetteRequest;
  /** The recorded entry most like it, if the cassette has any. */
  nearest?: number;
  /** How the request differs from the nearest entry's; empty when it is the same request asked once more than recorded. */
  differences: readonly CassetteDifference[];
}

/**
 * A replayed request that has no recording: the replay fails closed instead
 * of answering something else. The message shows how the request differs
 * from the nearest recording (which message, which field, before and after)
 * and how to record again; the same is in `nearest` and `differences`.
 */
export class CassetteMissError extends AgentError {
  readonly file: string | undefined;
  readonly request: CassetteRequest;
  readonly nearest: number | undefined;
  readonly differences: readonly CassetteDifference[];

  constructor(details: CassetteMissDetails) {
    super('cassette_miss', missMessage(details));
    this.name = 'CassetteMissError';
    this.file = details.file;
    this.request = details.request;
    this.nearest = details.nearest;
    this.differences = details.differences;
  }
}

function missMessage(details: CassetteMissDetails): string {
  const where = details.file === undefined ? 'the cassette' : `cassette ${details.file}`;
  const head = `No recorded reply in ${where} for this request.`;
  const body =
    details.nearest === undefined
      ? ' The cassette holds no recording.'
      : details.differences.length === 0
        ? ` Entry ${details.nearest} recorded this very request, and its reply was served already: it is asked more often than it was recorded.`
        : ` It differs from the nearest recording, entry ${details.nearest}:\n${describeDifferences(details.differences)}\n`;
  return `${head}${body} If the change is intended, record again: ${cassetteModeVariable}=record-missing adds what is missing, ${cassetteModeVariable}=record records the cassette anew.`;
}
