import './register.js';

export { fsTools } from './fs-tools.js';
export type { FsToolsOptions } from './fs-tools-settings.js';
export { nodeFileSystemOperations } from './file-system-operations.js';
export type { FileSystemOperations } from './file-system-operations.js';
export { WorkspaceError } from './workspace-error.js';
export type { WorkspaceErrorCode } from './workspace-error.js';
export type { EditFileInput } from './edit-file-tool.js';
export type { GlobInput } from './glob-tool.js';
export type { GrepInput } from './grep-tool.js';
export type { ListFilesInput } from './list-files-tool.js';
export type { ReadFileInput } from './read-file-tool.js';
export type { WriteFileInput } from './write-file-tool.js';
