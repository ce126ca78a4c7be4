import type {
  AssistantMessage,
  ModelEvent,
  ModelInfo,
  ProviderErrorKind,
  ResponseFormat,
  ToolChoice,
  ToolResultMessage,
  ToolSpec,
  UserMessage,
} from '@agent-core/core';

/** The cassette file format this version writes; a file of a newer version is refused, never guessed at. */
export const cassetteFormatVersion = 1;

/** The parts of a request besides its messages; a recording that lacks one (a stored session's) matches any value of it. */
export type RequestField = 'model' | 'system' | 'tools' | 'settings';

/** The settings of a request that change what the model answers. */
export interface RequestSettings {
  maxTokens?: number;
  temperature?: number;
  stopSequences?: readonly string[];
  toolChoice?: ToolChoice;
  responseFormat?: ResponseFormat;
}

/** A message as a cassette keeps it: an assistant message is its role and content only (see `CassetteRequest`). */
export type CassetteMessage = UserMessage | Pick<AssistantMessage, 'role' | 'content'> | ToolResultMessage;

/**
 * A request in canonical form: what the model was sent, with tool-call ids
 * replaced by `call_1`, `call_2`, ... in order of appearance, assistant
 * messages cut to their content (usage, stop reason and provider are not sent
 * to a model), and secret-shaped strings redacted. A field left out is not
 * known (a stored session keeps only messages) and is not compared; `system:
 * null`, `tools: []` and `settings: {}` say there were none.
 */
export interface CassetteRequest {
  model?: string;
  system?: string | null;
  tools?: readonly ToolSpec[];
  settings?: RequestSettings;
  messages: readonly CassetteMessage[];
}

/** A provider failure as a cassette keeps it: plain JSON, rebuilt into a `ProviderError` on replay. */
export interface RecordedProviderError {
  kind: ProviderErrorKind;
  message: string;
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
}

/** One event of a recorded reply: a `ModelEvent` as plain JSON, its `ProviderError` as a `RecordedProviderError`. */
export type CassetteEvent =
  | Exclude<ModelEvent, { type: 'error' }>
  | { type: 'error'; error: RecordedProviderError };

/** One request and the reply it got, as the provider streamed it; the last event is `done` or `error`. */
export interface CassetteEntry {
  request: CassetteRequest;
  reply: readonly CassetteEvent[];
}

/**
 * Recorded model calls, in the order they were made: what `cassette()`
 * reads and writes as a JSON file, and what `sessionCassette()` makes of a
 * stored session. Plain data.
 */
export interface Cassette {
  /** The name of the provider the replies came from; a replay answers under it. */
  provider?: string;
  /** What the recorded provider said of each model it was asked for (`Provider.modelInfo`), so a replay prices usage alike. */
  models?: Readonly<Record<string, ModelInfo>>;
  entries: readonly CassetteEntry[];
}
