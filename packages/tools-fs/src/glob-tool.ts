import { defineTool, type Tool } from '@agent-core/core';
import { z } from 'zod';
import { type FsToolsSettings, openWorkspace } from './fs-tools-settings.js';
import { compileGlob, expandBraces, splitGlobBase } from './glob-pattern.js';
import { walkTree } from './walk-tree.js';
import { WorkspaceError } from './workspace-error.js';

const globInput = z.object({
  pattern: z
    .string()
    .min(1)
    .describe("Glob relative to path, e.g. '**/*.ts', 'src/*.{js,json}', 'test/[a-c]*.md'."),
  path: z
    .string()
    .optional()
    .describe('Directory to search from, relative to the workspace root. Default: the root.'),
});

/** The input of `glob`. */
export type GlobInput = z.infer<typeof globInput>;

/**
 * The `glob` tool: paths under a directory that match a glob (`*`, `?`, `**`,
 * `{a,b}`, `[a-z]`), sorted, relative to the root, directories marked with a
 * trailing `/`. Ignore rules as in `list_files`; capped with a note.
 */
export function globTool(settings: FsToolsSettings): Tool<GlobInput> {
  return defineTool({
    name: 'glob',
    description:
      `Find paths in the workspace matching a glob pattern, relative to path (default: the root). '*' and '?' match within one path segment, '**' any number of directories, '{a,b}' either alternative, '[a-z]' one character of a class; '*.ts' matches only at the top level, '**/*.ts' at any depth. ` +
      `Returns sorted paths relative to the root (directories end in '/'); .gitignore'd entries, .git and node_modules are skipped. At most ${settings.maxEntries} results.`,
    parameters: globInput,
    risk: 'read',
    async execute({ pattern, path }, { signal }) {
      if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
        throw new Error(
          `The glob '${pattern}' must be relative to path, without '..'; to search elsewhere in the workspace, set path instead.`,
        );
      }
      const workspace = await openWorkspace(settings);
      const searchRoot = await workspace.resolveExisting(path ?? '.');
      if (!searchRoot.stats.isDirectory()) {
        throw new Error(`'${searchRoot.display}' is a file, not a directory; give a directory as path.`);
      }
      // Start the walk at the pattern's literal directories ('src/lib' of 'src/lib/**/*.ts').
      const { base, rest } = splitGlobBase(pattern);
      let start = searchRoot;
      if (base !== '.') {
        try {
          start = await workspace.resolveExisting(`${searchRoot.display}/${base}`);
        } catch (error) {
          if (error instanceof WorkspaceError && error.code === 'not_found')
            return `No paths match '${pattern}' under '${searchRoot.display}'.`;
          throw error;
        }
        if (!start.stats.isDirectory()) return `No paths match '${pattern}' under '${searchRoot.display}'.`;
      }
      const matcher = compileGlob(rest, { braces: true });
      const alternatives = expandBraces(rest);
      const maxDepth = alternatives.some((alternative) => alternative.includes('**'))
        ? undefined
        : Math.max(...alternatives.map((alternative) => alternative.split('/').length));
      const matches: string[] = [];
      let scanned = 0;
      let truncated = false;
      let scanStopped = false;
      const walk = walkTree(workspace, start, {
        ...(maxDepth === undefined ? {} : { maxDepth }),
        rootRules: settings.rootRules,
        signal,
      });
      for await (const entry of walk) {
        if (++scanned > settings.maxScanEntries) {
          scanStopped = true;
          break;
        }
        if (!matcher.test(entry.relative)) continue;
        if (matches.length === settings.maxEntries) {
          truncated = true;
          break;
        }
        matches.push(entry.kind === 'directory' ? `${entry.display}/` : entry.display);
      }
      const notes: string[] = [];
      if (truncated) {
        notes.push(
          `[Showed the first ${settings.maxEntries} matches; there are more. Use a narrower pattern or path.]`,
        );
      }
      if (scanStopped) {
        notes.push(
          `[Stopped after visiting ${settings.maxScanEntries} entries; matches further on were not seen. Use a narrower pattern or path.]`,
        );
      }
      if (matches.length === 0 && notes.length === 0)
        return `No paths match '${pattern}' under '${searchRoot.display}'.`;
      return [...matches, ...notes].join('\n');
    },
  });
}
