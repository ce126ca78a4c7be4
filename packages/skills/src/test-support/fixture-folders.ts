import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const fixtures = new URL('../__fixtures__/', import.meta.url).pathname;
const temporary: string[] = [];

afterEach(async () => {
  for (const folder of temporary.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** A fresh temporary folder, removed after the test. */
export async function temporaryFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'agent-core-skills-'));
  temporary.push(folder);
  return folder;
}

/** Copies fixture folders (`project`, `user`, `broken`) into a fresh temporary folder, so nothing above them is searched. */
export async function copyFixtures(...names: string[]): Promise<string> {
  const folder = await temporaryFolder();
  for (const name of names) await cp(join(fixtures, name), join(folder, name), { recursive: true });
  return folder;
}

/**
 * The real skills of a public skills repository that sit beside the project
 * (`../shared/fixtures/skills` from the repository root, as CI lays it out;
 * `AGENT_CORE_SHARED_DIR` names another `shared/` folder), or undefined.
 */
export function sharedSkillsFolder(): string | undefined {
  const root = new URL('../../../../', import.meta.url).pathname;
  const shared = process.env.AGENT_CORE_SHARED_DIR ?? join(root, '..', 'shared');
  const folder = join(shared, 'fixtures', 'skills');
  return existsSync(folder) ? folder : undefined;
}
