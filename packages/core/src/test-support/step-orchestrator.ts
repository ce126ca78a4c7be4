// Core's own tests use the tool loop that `@agent-core/core/testing` exports.
export { stepOrchestrator } from '../testing/step-orchestrator.js';
