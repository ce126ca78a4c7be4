import './register.js';

export { shellTool } from './shell-tool.js';
export type { ShellInput, ShellToolOptions } from './shell-tool.js';
export type { ShellCommand, ShellCommandOutcome, ShellRunner } from './shell-runner.js';
export { buildShellEnvironment, inheritedEnvironmentNames } from './shell-environment.js';
export type { ShellEnvironmentOptions } from './shell-environment.js';
