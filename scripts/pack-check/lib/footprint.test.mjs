// The README's footprint table: compared exactly, rewritten only with --write.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { endMarker, footprintTable, startMarker, syncReadmeTable, tablesAgree } from './footprint.mjs';

const folder = mkdtempSync(join(tmpdir(), 'footprint-test-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const table = footprintTable([
  {
    name: '@agent-core/core',
    tarballBytes: 80_400,
    unpackedBytes: 340_600,
    installed: ['zod'],
    direct: ['zod'],
  },
  {
    name: '@agent-core/provider-mock',
    tarballBytes: 200,
    unpackedBytes: 35_000,
    installed: ['@agent-core/core', 'zod'],
    direct: ['@agent-core/core'],
  },
]);

describe('footprint table', () => {
  test('shows kilobytes, the number of packages installed and the direct ones', () => {
    assert.match(table, /\| `@agent-core\/core` \| 80 kB \| 341 kB \| 1 \| `zod` \|/);
    assert.match(table, /\| `@agent-core\/provider-mock` \| 1 kB \| 35 kB \| 2 \| `@agent-core\/core` \|/);
  });

  test('a README that differs fails with both versions of the changed rows, and --write fixes it', () => {
    const readme = join(folder, 'README.md');
    writeFileSync(readme, `# Title\n\n${startMarker}\n| old |\n${endMarker}\n\nAfter.\n`);
    const problem = syncReadmeTable(readme, table, false);
    assert.match(problem ?? '', /differs from the measurement/);
    assert.match(problem ?? '', /README: {3}\| old \|/);
    assert.equal(syncReadmeTable(readme, table, true), undefined);
    assert.equal(
      readFileSync(readme, 'utf8'),
      `# Title\n\n${startMarker}\n${table}\n${endMarker}\n\nAfter.\n`,
    );
    assert.equal(syncReadmeTable(readme, table, false), undefined);
  });

  test('a README without the markers is reported', () => {
    const readme = join(folder, 'NO-MARKERS.md');
    writeFileSync(readme, '# Title\n');
    assert.match(syncReadmeTable(readme, table, true) ?? '', /has no .* markers/);
  });
});

test('small size changes agree; new dependencies and large size changes do not', () => {
  const row = (tarball, count) => `| \`@agent-core/core\` | ${tarball} kB | 300 kB | ${count} | \`zod\` |`;
  assert.equal(tablesAgree(row(84, 1), row(87, 1)), true);
  assert.equal(tablesAgree(row(84, 1), row(120, 1)), false);
  assert.equal(tablesAgree(row(84, 1), row(84, 2)), false);
});
