import { constants, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { type GitignoreRule, IgnoreRules, parseGitignore } from './gitignore.js';
import { readText } from './text-file.js';
import type { ResolvedEntry, Workspace } from './workspace.js';

/** What kind of thing an entry is; links are reported, never followed. */
export type TreeEntryKind = 'file' | 'directory' | 'symlink' | 'other';

/** One entry found by `walkTree`. */
export interface TreeEntry {
  /** Relative to the workspace root, `/`-separated: the path the model uses. */
  display: string;
  /** Relative to the directory the walk started in, `/`-separated. */
  relative: string;
  /** Absolute path (the parent's real path plus the name). */
  absolute: string;
  kind: TreeEntryKind;
  /** 1 for the start directory's own entries. */
  depth: number;
}

/** Options for `walkTree`. */
export interface WalkOptions {
  /** How many levels to descend; 1 lists only the start directory. Default: no limit. */
  maxDepth?: number;
  /** Extra gitignore-syntax rules that apply from the root. */
  rootRules?: readonly GitignoreRule[];
  signal?: AbortSignal;
}

// A .gitignore bigger than this is not a real one; skip it rather than read it.
const maxIgnoreFileBytes = 1024 * 1024;

function kindOf(entry: Dirent): TreeEntryKind {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile()) return 'file';
  return 'other';
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

async function loadIgnoreFile(workspace: Workspace, directory: string): Promise<GitignoreRule[]> {
  const path = join(directory, '.gitignore');
  try {
    const stats = await workspace.operations.lstat(path);
    if (!stats.isFile() || stats.size > maxIgnoreFileBytes) return [];
    const handle = await workspace.operations.open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    try {
      return parseGitignore(await readText(handle));
    } finally {
      await handle.close();
    }
  } catch {
    return [];
  }
}

/**
 * Walks a directory inside the workspace depth first, siblings sorted by name,
 * skipping what the ignore rules exclude (`.gitignore` files from the root
 * down, `.git`, `node_modules`). Symbolic links are yielded but never
 * followed, so a walk cannot leave the root or loop. Unreadable
 * subdirectories are skipped.
 */
export async function* walkTree(
  workspace: Workspace,
  start: ResolvedEntry,
  options: WalkOptions = {},
): AsyncGenerator<TreeEntry> {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  let rules = new IgnoreRules().withLevel('', options.rootRules ?? []);
  // The ignore files of the directories above the start apply too.
  const startFromRoot = toPosix(relative(workspace.realRoot, start.real));
  const ancestors = startFromRoot === '' ? [] : startFromRoot.split('/');
  for (let index = 0; index < ancestors.length; index++) {
    const base = ancestors.slice(0, index).join('/');
    rules = rules.withLevel(base, await loadIgnoreFile(workspace, join(workspace.realRoot, base)));
  }

  async function* visit(
    directory: string,
    display: string,
    relativeDirectory: string,
    depth: number,
    inherited: IgnoreRules,
  ): AsyncGenerator<TreeEntry> {
    options.signal?.throwIfAborted();
    let entries: Dirent[];
    try {
      entries = await workspace.operations.readdir(directory, { withFileTypes: true });
    } catch (error) {
      if (depth === 1) throw error;
      return;
    }
    // Read by path, so check afterwards that the path was not swapped for a link meanwhile.
    await workspace.assertDirectoryUnchanged(display, directory);
    const fromRoot = toPosix(relative(workspace.realRoot, directory));
    const ownIgnoreFile = entries.some((entry) => entry.name === '.gitignore' && entry.isFile());
    const rules = ownIgnoreFile
      ? inherited.withLevel(fromRoot, await loadIgnoreFile(workspace, directory))
      : inherited;
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    for (const entry of entries) {
      const kind = kindOf(entry);
      const entryFromRoot = fromRoot === '' ? entry.name : `${fromRoot}/${entry.name}`;
      if (rules.isIgnored(entryFromRoot, kind === 'directory')) continue;
      const found: TreeEntry = {
        display: display === '.' ? entry.name : `${display}/${entry.name}`,
        relative: relativeDirectory === '' ? entry.name : `${relativeDirectory}/${entry.name}`,
        absolute: join(directory, entry.name),
        kind,
        depth,
      };
      yield found;
      if (kind === 'directory' && depth < maxDepth) {
        yield* visit(found.absolute, found.display, found.relative, depth + 1, rules);
      }
    }
  }

  yield* visit(start.real, start.display, '', 1, rules);
}
