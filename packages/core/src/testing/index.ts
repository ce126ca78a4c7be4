export { sessionStoreConformance } from './session-store-conformance.js';
export type { ConformanceHarness, ConformanceOptions } from './session-store-conformance.js';
export { canonicalJson, check, checkRejects, checkSameJson } from './assertions.js';
export { everyMessageKind, sampleEvents, sampleSessionState } from './session-fixtures.js';
export { stepOrchestrator } from './step-orchestrator.js';
