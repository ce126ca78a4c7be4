export type {
  AgentDefinition,
  InputConfig,
  InputParameter,
  InputType,
  GovernanceConfig,
  ModelConfig,
  OutputConfig,
  PromptConfig,
  RunConfig,
  ToolConfig,
} from './agent-definition.js';
export { defineAgent } from './agent-definition.js';
export { AgentRegistry, defaultAgentRegistry } from './agent-registry.js';
export { AgentExecutor, subagentState } from './agent-executor.js';
export type { AgentExecutorOptions, ExecuteOptions, SubagentState } from './agent-executor.js';
export type { AgentLineage } from './agent-lineage.js';
export { asTool } from './as-tool.js';
export type { AsToolOptions } from './as-tool.js';
export { defaultOutputToolName } from './structured-output.js';
export { substituteTemplate, templateVariables } from './substitute-template.js';
export { validateDefinition } from './validate-definition.js';
