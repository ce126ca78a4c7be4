export { sessionStoreConformance } from './session-store-conformance.js';
export type { ConformanceOptions } from './session-store-conformance.js';
export { canonicalJson, check, checkRejects, checkSameJson, checkValidHistory } from './assertions.js';
export { everyMessageKind, sampleEvents, sampleSessionState } from './session-fixtures.js';
export { stepOrchestrator } from './step-orchestrator.js';
export { orchestratorConformance } from './orchestrator-conformance.js';
export type { OrchestratorCapabilities, OrchestratorConformanceOptions } from './orchestrator-conformance.js';
export type { InspectedRun } from './run-scenario.js';
export { ConformanceFailure } from './conformance-case.js';
export type { ConformanceCase, ConformanceHarness } from './conformance-case.js';
export { nativeDialect } from './conformance-dialect.js';
export type {
  AnswerReply,
  ConformanceDialect,
  DialectReply,
  FailureReply,
  ScriptedCall,
  ScriptedReply,
  ToolsReply,
} from './conformance-dialect.js';
export { providerConformance } from './provider-conformance.js';
export type { ProviderCapabilities, ProviderConformanceOptions } from './provider-conformance.js';
export type {
  KitAnswer,
  ProviderWire,
  WireEndpoint,
  WirePart,
  WireReply,
  WireResponse,
  WireServe,
  WireUsage,
} from './provider-wire.js';
export { collectEvents, finalError, finalMessage } from './stream-events.js';
