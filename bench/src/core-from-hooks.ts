import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// The module hooks of `core-from.ts`: @agent-core/core and its subpaths resolve to the build given.

const subpaths: Record<string, string> = {
  '@agent-core/core': 'index.js',
  '@agent-core/core/testing': 'testing/index.js',
  '@agent-core/core/definitions': 'definition/index.js',
};
let dist = '';

export function initialize(data: { dist: string }): void {
  dist = data.dist;
}

type Next = (specifier: string, context: unknown) => Promise<unknown>;

export async function resolve(specifier: string, context: unknown, next: Next): Promise<unknown> {
  const file = subpaths[specifier];
  if (file === undefined) return next(specifier, context);
  return { url: pathToFileURL(join(dist, file)).href, format: 'module', shortCircuit: true };
}
