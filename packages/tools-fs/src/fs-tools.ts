import type { AnyTool } from '@agent-core/core';
import { editFileTool } from './edit-file-tool.js';
import { type FsToolsOptions, resolveFsToolsSettings } from './fs-tools-settings.js';
import { globTool } from './glob-tool.js';
import { grepTool } from './grep-tool.js';
import { listFilesTool } from './list-files-tool.js';
import { readFileTool } from './read-file-tool.js';
import { writeFileTool } from './write-file-tool.js';

/**
 * The file-system tools, confined to a workspace root: `read_file`,
 * `list_files`, `glob`, `grep` (risk `read`) and, unless `readOnly`,
 * `write_file` and `edit_file` (risk `write`). The root defaults to
 * `process.cwd()` at the time of this call; its real path is taken again on
 * every tool call. Throws `ConfigError` for invalid options.
 *
 * @example
 * const agent = new Agent({ provider, model, tools: fsTools({ root: '/srv/project' }) });
 */
export function fsTools(options: FsToolsOptions = {}): AnyTool[] {
  const settings = resolveFsToolsSettings(options);
  const tools: AnyTool[] = [
    readFileTool(settings),
    listFilesTool(settings),
    globTool(settings),
    grepTool(settings),
  ];
  if (!settings.readOnly) tools.push(writeFileTool(settings), editFileTool(settings));
  return tools;
}
