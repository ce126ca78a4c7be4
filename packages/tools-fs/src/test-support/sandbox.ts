import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AnyTool, ToolContext } from '@agent-core/core';
import { afterEach, beforeEach } from 'vitest';
import { fsTools } from '../fs-tools.js';
import type { FsToolsOptions } from '../fs-tools-settings.js';

/** A temporary directory holding a workspace root and, beside it, an "outside" directory. */
export interface Sandbox {
  /** The workspace root (real path). */
  root: string;
  /** A directory outside the root, holding `secret.txt`. */
  outside: string;
  /** Writes files under the root: `{ 'a/b.txt': 'text' }`. */
  files(tree: Record<string, string | Uint8Array>): Promise<void>;
  /** Creates a symbolic link at `path` (relative to the root) pointing to `target`. */
  link(path: string, target: string): Promise<void>;
  /** The tools by name, for this root. */
  tools(options?: FsToolsOptions): Record<string, AnyTool>;
  remove(): Promise<void>;
}

export const secretText = 'TOP SECRET: outside the workspace';

export async function makeSandbox(): Promise<Sandbox> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'agent-core-tools-fs-')));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(join(outside, 'dir'), { recursive: true });
  await writeFile(join(outside, 'secret.txt'), secretText);
  await writeFile(join(outside, 'dir', 'secret.txt'), secretText);
  return {
    root,
    outside,
    async files(tree) {
      for (const [path, content] of Object.entries(tree)) {
        await mkdir(dirname(join(root, path)), { recursive: true });
        await writeFile(join(root, path), content);
      }
    },
    async link(path, target) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await symlink(target, join(root, path));
    },
    tools(options = {}) {
      return Object.fromEntries(fsTools({ root, ...options }).map((tool) => [tool.name, tool]));
    },
    remove: () => rm(base, { recursive: true, force: true }),
  };
}

/** Runs a tool's execute with a fresh context, as core would after validating the input. */
export async function run(tool: AnyTool | undefined, input: Record<string, unknown>, signal?: AbortSignal) {
  if (tool === undefined) throw new Error('no such tool');
  const context: ToolContext = {
    signal: signal ?? new AbortController().signal,
    toolCallId: 'call-1',
    agent: undefined,
  };
  return tool.execute(input, context);
}

/**
 * A fresh sandbox for each test of the file, holding `tree`, removed after the test: call it at the
 * top of a test file and read the sandbox inside tests only.
 */
export function useSandbox(tree: Record<string, string | Uint8Array> = {}): Sandbox {
  let current: Sandbox | undefined;
  const box = (): Sandbox => {
    if (current === undefined) throw new Error('the sandbox is made in beforeEach: use it inside a test');
    return current;
  };
  beforeEach(async () => {
    current = await makeSandbox();
    await current.files(tree);
  });
  afterEach(async () => {
    await current?.remove();
    current = undefined;
  });
  return {
    get root() {
      return box().root;
    },
    get outside() {
      return box().outside;
    },
    files: (files) => box().files(files),
    link: (path, target) => box().link(path, target),
    tools: (options) => box().tools(options),
    remove: () => box().remove(),
  };
}
