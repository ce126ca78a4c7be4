import { readFileSync } from 'node:fs';
import { expect, it, vi } from 'vitest';

it('the README example is this file, and it runs as written', async () => {
  const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
  const example = readFileSync(new URL('./readme-example.ts', import.meta.url), 'utf8')
    .split('\n')
    .slice(1)
    .join('\n');
  expect(readme).toContain(example);
  const logged: unknown[][] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args) => void logged.push(args));
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  await import('./readme-example.js');
  log.mockRestore();
  write.mockRestore();
  expect(logged).toEqual([['\nadd → 45'], ['\n', 'completed']]);
});
