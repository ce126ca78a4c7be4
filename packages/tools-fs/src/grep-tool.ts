import { defineTool, type Tool } from '@agent-core/core';
import { z } from 'zod';
import { type FsToolsSettings, openWorkspace } from './fs-tools-settings.js';
import { compileGlob } from './glob-pattern.js';
import { formatBytes, looksBinary, readLines } from './text-file.js';
import { walkTree } from './walk-tree.js';
import type { ResolvedEntry, Workspace } from './workspace.js';

const grepInput = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('JavaScript regular expression to search for, e.g. "function\\s+main".'),
  path: z
    .string()
    .optional()
    .describe('File or directory to search, relative to the workspace root. Default: the root.'),
  glob: z
    .string()
    .optional()
    .describe(
      "Only search files matching this glob: '*.ts' matches file names, 'src/**/*.ts' paths under path.",
    ),
  ignoreCase: z.boolean().optional().describe('Match without regard to case. Default false.'),
  maxResults: z.number().int().min(1).optional().describe('Most matching lines to return. Default 100.'),
});

/** The input of `grep`. */
export type GrepInput = z.infer<typeof grepInput>;

const defaultMaxResults = 100;
const maxLineCharacters = 500;

function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The pattern is not a valid JavaScript regular expression (${reason}). Escape characters such as ( [ { . * + ? | with a backslash to match them literally.`,
    );
  }
}

interface SearchState {
  results: string[];
  limit: number;
  more: boolean;
  tooLarge: number;
}

async function searchFile(
  workspace: Workspace,
  entry: ResolvedEntry,
  regex: RegExp,
  state: SearchState,
  settings: FsToolsSettings,
  signal: AbortSignal,
): Promise<boolean> {
  if (entry.stats.size > settings.maxFileBytes) {
    state.tooLarge++;
    return false;
  }
  const handle = await workspace.openForRead(entry);
  try {
    if (await looksBinary(handle)) return false;
    let lineNumber = 0;
    for await (const line of readLines(handle, signal, settings.maxFileBytes)) {
      lineNumber++;
      if (!regex.test(line)) continue;
      if (state.results.length === state.limit) {
        state.more = true;
        break;
      }
      const text = line.length > maxLineCharacters ? `${line.slice(0, maxLineCharacters)}…` : line;
      state.results.push(`${entry.display}:${lineNumber}: ${text}`);
    }
    return true;
  } finally {
    await handle.close();
  }
}

/**
 * The `grep` tool: lines matching a regular expression in a file or under a
 * directory, as `path:line: text`, skipping binary files, ignored entries and
 * files over `maxFileBytes`; `maxResults` (default 100, at most
 * `maxGrepResults`) caps the output, with a note when more matched.
 */
export function grepTool(settings: FsToolsSettings): Tool<GrepInput> {
  return defineTool({
    name: 'grep',
    description:
      `Search file contents in the workspace with a JavaScript regular expression. Prints 'path:line: text' for each matching line, paths relative to the root. ` +
      `Searches one file or everything under a directory (optionally only files matching glob), skipping binary files, .gitignore'd entries, .git and node_modules. ` +
      `Returns ${defaultMaxResults} matches unless maxResults says otherwise (at most ${settings.maxGrepResults}).`,
    parameters: grepInput,
    risk: 'read',
    async execute({ pattern, path, glob, ignoreCase, maxResults }, { signal }) {
      const regex = compilePattern(pattern, ignoreCase === true);
      const fileFilter = glob === undefined ? undefined : compileGlob(glob, { braces: true });
      const workspace = await openWorkspace(settings);
      const start = await workspace.resolveExisting(path ?? '.');
      const state: SearchState = {
        results: [],
        limit: Math.min(maxResults ?? defaultMaxResults, settings.maxGrepResults),
        more: false,
        tooLarge: 0,
      };
      let filesSearched = 0;
      let scanStopped = false;
      if (!start.stats.isDirectory()) {
        if (await searchFile(workspace, start, regex, state, settings, signal)) filesSearched++;
      } else {
        let scanned = 0;
        const walk = walkTree(workspace, start, { rootRules: settings.rootRules, signal });
        for await (const entry of walk) {
          if (++scanned > settings.maxScanEntries) {
            scanStopped = true;
            break;
          }
          if (entry.kind !== 'file') continue;
          if (fileFilter !== undefined) {
            const subject = glob?.includes('/')
              ? entry.relative
              : entry.relative.slice(entry.relative.lastIndexOf('/') + 1);
            if (!fileFilter.test(subject)) continue;
          }
          // Each file is resolved and opened with the same checks as read_file.
          const file = await workspace.resolveExisting(entry.display);
          if (await searchFile(workspace, file, regex, state, settings, signal)) filesSearched++;
          if (state.more) break;
        }
      }
      const notes: string[] = [];
      if (state.more) {
        notes.push(
          `[Stopped at ${state.limit} matches; there are more. Narrow the pattern, path or glob, or raise maxResults (at most ${settings.maxGrepResults}).]`,
        );
      }
      if (state.tooLarge > 0) {
        notes.push(`[Skipped ${state.tooLarge} file(s) larger than ${formatBytes(settings.maxFileBytes)}.]`);
      }
      if (scanStopped) {
        notes.push(
          `[Stopped after visiting ${settings.maxScanEntries} entries; files further on were not searched. Narrow the path or glob.]`,
        );
      }
      if (state.results.length === 0) {
        notes.unshift(
          `No matches for /${pattern}/ in '${start.display}' (${filesSearched} file(s) searched).`,
        );
      }
      return [...state.results, ...notes].join('\n');
    },
  });
}
