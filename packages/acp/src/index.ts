export { serveAcp } from './serve-acp.js';
export type { AcpServer } from './serve-acp.js';
export type {
  AcpAgentFactory,
  AcpAgentSetup,
  AcpAuthOptions,
  AcpClientAccess,
  AcpCommand,
  AcpCommandContext,
  AcpModelChoice,
  AcpSessionContext,
  ServeAcpOptions,
} from './serve-acp-options.js';
export type { AcpSessionConfig, AcpSessionRecord, RecordedPlan } from './session-record.js';
export { replayHistory } from './replay-history.js';
export { toolKindOf, viewOfToolCall } from './tool-call-view.js';
export type { ToolCallView } from './tool-call-view.js';
export { stopReasonOf } from './stop-reason.js';
export { permissionOptions } from './permission-options.js';
