import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DiscoveredSkill } from './discovered-skill.js';
import { loadSkillFolder, type SkillFileLimits, skillFileOf } from './load-skill-folder.js';
import { type SkillFolder, type SkillFolderOptions, skillFolders } from './skill-folders.js';
import type { SkillProblem } from './skill-problem.js';

/** Bounds of a discovery, so thousands of folders, deep trees and link loops cannot stall it. */
export interface DiscoveryLimits extends SkillFileLimits {
  /** How deep below a folder of skills a skill may sit (default 3: `<folder>/<group>/<group>/<skill>`). */
  maxDepth?: number;
  /** How many folders one discovery looks into at most (default 20,000). */
  maxFolders?: number;
  /** How many skills one discovery reads at most (default 5,000). */
  maxSkills?: number;
}

/** What `discoverSkills` takes: where to look (see `skillFolders`) and its limits. */
export interface DiscoverSkillsOptions extends SkillFolderOptions {
  limits?: DiscoveryLimits;
}

/** A valid skill that a skill of the same name found earlier hides. */
export interface ShadowedSkill {
  skill: DiscoveredSkill;
  by: DiscoveredSkill;
}

/** What a discovery found: the skills to use (sorted by name), the broken ones and warnings, the hidden ones, the folders searched. */
export interface SkillDiscovery {
  skills: DiscoveredSkill[];
  problems: SkillProblem[];
  shadowed: ShadowedSkill[];
  folders: SkillFolder[];
}

// Parallel file system calls: enough to hide latency, few enough to leave descriptors for everyone else.
const concurrency = 32;

/**
 * Finds and validates the skills of the project, the folders named and the
 * user (see `skillFolders` for where and in which order). A skill folder is
 * one that holds a `SKILL.md`; folders below a skill are its own, not more
 * skills. Symbolic links are followed, each real folder entered once (no
 * loops), hidden folders and `node_modules` skipped, and the depth, folder
 * and skill counts bounded. A broken skill is reported in `problems` (file,
 * line, what is wrong) and left out; a missing folder is no problem.
 * A skill found earlier shadows one of the same name found later. Never throws.
 *
 * @example
 * const { skills, problems } = await discoverSkills({ project: process.cwd() });
 */
export async function discoverSkills(options: DiscoverSkillsOptions = {}): Promise<SkillDiscovery> {
  const folders = skillFolders(options);
  const limits = options.limits ?? {};
  const maxDepth = limits.maxDepth ?? 3;
  const maxFolders = limits.maxFolders ?? 20_000;
  const maxSkills = limits.maxSkills ?? 5_000;
  const problems: SkillProblem[] = [];
  const visited = new Set<string>();
  let foldersSeen = 0;
  let stopped = false;

  const candidates: { directory: string; file: string; folder: SkillFolder }[] = [];
  for (const folder of folders) {
    const root = await realpath(folder.path).catch(() => undefined);
    if (root === undefined || visited.has(root)) continue;
    if (!(await stat(root).catch(() => undefined))?.isDirectory()) continue;
    visited.add(root);
    const own = await skillFileOf(folder.path);
    if (own !== undefined) {
      // The caller named a skill's own folder.
      candidates.push({ directory: folder.path, file: own, folder });
      continue;
    }
    let level = [{ path: folder.path, real: root }];
    for (let depth = 1; depth <= maxDepth && level.length > 0 && !stopped; depth++) {
      const next: { path: string; real: string }[] = [];
      const children: { path: string; real: string }[] = [];
      await eachLimited(level, async (parent) => {
        let entries: Dirent[];
        try {
          entries = await readdir(parent.path, { withFileTypes: true });
        } catch (error) {
          problems.push({
            file: parent.path,
            severity: 'warning',
            message: `cannot be read (${errorText(error)}); its skills are left out`,
          });
          return;
        }
        for (const entry of entries) {
          if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
          const path = join(parent.path, entry.name);
          if (entry.isDirectory()) children.push({ path, real: join(parent.real, entry.name) });
          else if (entry.isSymbolicLink()) {
            const real = await realpath(path).catch(() => undefined);
            if (real !== undefined && (await stat(real).catch(() => undefined))?.isDirectory())
              children.push({ path, real });
          }
        }
      });
      // In path order, so the first of two links to one real folder is always the same one.
      children.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
      const fresh = children.filter((child) => {
        if (visited.has(child.real)) return false;
        visited.add(child.real);
        return true;
      });
      if (foldersSeen + fresh.length > maxFolders) {
        fresh.length = Math.max(0, maxFolders - foldersSeen);
        stopped = true;
      }
      foldersSeen += fresh.length;
      await eachLimited(fresh, async (child) => {
        const file = await skillFileOf(child.path);
        if (file !== undefined) candidates.push({ directory: child.path, file, folder });
        else next.push(child);
      });
      level = next.sort((left, right) => (left.path < right.path ? -1 : 1));
    }
    if (stopped) {
      problems.push({
        file: folder.path,
        severity: 'warning',
        message: `holds more than ${maxFolders} folders; discovery stopped there and later skills are left out`,
      });
      break;
    }
  }

  // Candidates of one folder arrive in any order; precedence is by folder, then by path.
  const order = new Map(folders.map((folder, index) => [folder, index]));
  candidates.sort(
    (left, right) =>
      (order.get(left.folder) ?? 0) - (order.get(right.folder) ?? 0) ||
      (left.directory < right.directory ? -1 : 1),
  );
  if (candidates.length > maxSkills) {
    problems.push({
      file: candidates[maxSkills]?.directory ?? '',
      severity: 'warning',
      message: `is past the first ${maxSkills} skills found; it and the ones after it are left out`,
    });
    candidates.length = maxSkills;
  }
  const loaded = new Array<DiscoveredSkill | undefined>(candidates.length);
  const found = candidates.map((candidate, index) => ({ candidate, index }));
  const problemsOf = new Array<SkillProblem[]>(candidates.length);
  await eachLimited(found, async ({ candidate, index }) => {
    const result = await loadSkillFolder(candidate.directory, {
      ...limits,
      source: candidate.folder.source,
      file: candidate.file,
    });
    loaded[index] = result.skill;
    problemsOf[index] = result.problems;
  });

  const skills = new Map<string, DiscoveredSkill>();
  const shadowed: ShadowedSkill[] = [];
  for (const [index, skill] of loaded.entries()) {
    problems.push(...(problemsOf[index] ?? []));
    if (skill === undefined) continue;
    const earlier = skills.get(skill.name);
    if (earlier === undefined) skills.set(skill.name, skill);
    else shadowed.push({ skill, by: earlier });
  }
  const sorted = [...skills.values()].sort((left, right) => (left.name < right.name ? -1 : 1));
  return { skills: sorted, problems, shadowed, folders };
}

/** Runs `work` on every item, at most `concurrency` at once. */
async function eachLimited<Item>(items: readonly Item[], work: (item: Item) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as Item);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
