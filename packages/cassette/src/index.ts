export { cassette } from './cassette-provider.js';
export type { CassetteOptions, CassetteProvider } from './cassette-provider.js';
export { cassetteModeVariable, resolveCassetteMode } from './cassette-mode.js';
export type { CassetteMode } from './cassette-mode.js';
export { cassetteFormatVersion } from './cassette-data.js';
export type {
  Cassette,
  CassetteEntry,
  CassetteEvent,
  CassetteMessage,
  CassetteRequest,
  RecordedProviderError,
  RequestField,
  RequestSettings,
} from './cassette-data.js';
export { parseCassette } from './parse-cassette.js';
export { formatCassette } from './cassette-writer.js';
export { canonicalRequest } from './canonical-request.js';
export { describeDifferences, requestDifferences } from './request-differences.js';
export type { CassetteDifference } from './request-differences.js';
export { sessionCassette } from './session-cassette.js';
export { noteRequests, requestNoteField } from './note-requests.js';
export type { RequestNote } from './note-requests.js';
export type { SessionCassette, SessionCassetteOptions, SessionDamage } from './session-cassette.js';
export type { ConvertToLlm } from './request-view.js';
export { CassetteError } from './cassette-error.js';
export type { CassetteErrorCode } from './cassette-error.js';
export { CassetteMissError } from './cassette-miss-error.js';
export type { CassetteMissDetails } from './cassette-miss-error.js';
export type { CassetteFiles } from './cassette-files.js';
