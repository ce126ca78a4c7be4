import { mkdir, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { nodeFileSystemOperations } from './file-system-operations.js';
import { useSandbox, run, secretText } from './test-support/sandbox.js';
import { WorkspaceError } from './workspace-error.js';

const box = useSandbox({ 'inside.txt': 'inside text\n', 'sub/file.txt': 'sub text\n' });

async function refusal(promise: Promise<unknown>): Promise<WorkspaceError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WorkspaceError);
  return error as WorkspaceError;
}

describe('paths that leave the root are refused by every tool', () => {
  const escapes = [
    '../outside/secret.txt',
    '../../etc/passwd',
    'sub/../../outside/secret.txt',
    '/etc/passwd',
  ];

  test.each(escapes)('read_file %s', async (path) => {
    const error = await refusal(run(box.tools().read_file, { path }));
    expect(error.code).toBe('outside_workspace');
    expect(error.message).toContain(path);
    expect(error.message).toContain(box.root);
  });

  test('an absolute path to the directory beside the root is refused', async () => {
    const error = await refusal(run(box.tools().read_file, { path: join(box.outside, 'secret.txt') }));
    expect(error.code).toBe('outside_workspace');
    expect(error.message).toContain(`outside the workspace root '${box.root}'`);
  });

  test.each([
    ['write_file', { path: '../outside/new.txt', content: 'x' }],
    ['edit_file', { path: '../outside/secret.txt', old_string: 'TOP', new_string: 'x' }],
    ['list_files', { path: '..' }],
    ['glob', { pattern: '*', path: '../outside' }],
    ['grep', { pattern: 'SECRET', path: '/etc' }],
  ])('%s with a path outside', async (name, input) => {
    const error = await refusal(run(box.tools()[name], input));
    expect(error.code).toBe('outside_workspace');
    expect(await readdir(box.outside)).toEqual(['dir', 'secret.txt']);
    expect(await readFile(join(box.outside, 'secret.txt'), 'utf8')).toBe(secretText);
  });

  test('glob refuses patterns that climb out', async () => {
    await expect(run(box.tools().glob, { pattern: '../outside/*' })).rejects.toThrow(/without '\.\.'/);
    await expect(run(box.tools().glob, { pattern: '/etc/*' })).rejects.toThrow(/relative to path/);
  });

  test('absolute paths inside the root work, also when the root is given through a link', async () => {
    expect(await run(box.tools().read_file, { path: join(box.root, 'inside.txt') })).toContain('inside text');
    const linkedRoot = join(box.outside, 'root-link');
    await symlink(box.root, linkedRoot);
    const tools = box.tools({ root: linkedRoot });
    expect(await run(tools.read_file, { path: join(linkedRoot, 'sub/file.txt') })).toContain('sub text');
    expect(await run(tools.read_file, { path: join(box.root, 'inside.txt') })).toContain('inside text');
    expect(await run(tools.read_file, { path: 'sub/../inside.txt' })).toContain('inside text');
  });
});

describe('symbolic links', () => {
  test('a link to a file outside is refused for reading, writing and editing', async () => {
    await box.link('leak.txt', join(box.outside, 'secret.txt'));
    const tools = box.tools();
    for (const [name, input] of [
      ['read_file', { path: 'leak.txt' }],
      ['write_file', { path: 'leak.txt', content: 'overwritten' }],
      ['edit_file', { path: 'leak.txt', old_string: 'TOP', new_string: 'x' }],
      ['grep', { pattern: 'SECRET', path: 'leak.txt' }],
    ] as const) {
      const error = await refusal(run(tools[name], input));
      expect(error.code).toBe('outside_workspace');
      expect(error.message).toContain("'leak.txt' leads through a symbolic link");
      expect(error.message).toContain(box.root);
    }
    expect(await readFile(join(box.outside, 'secret.txt'), 'utf8')).toBe(secretText);
  });

  test('a linked directory that leads outside is refused, for new files too', async () => {
    await box.link('linked', join(box.outside, 'dir'));
    const tools = box.tools();
    expect((await refusal(run(tools.read_file, { path: 'linked/secret.txt' }))).code).toBe(
      'outside_workspace',
    );
    expect((await refusal(run(tools.list_files, { path: 'linked' }))).code).toBe('outside_workspace');
    expect((await refusal(run(tools.write_file, { path: 'linked/new.txt', content: 'x' }))).code).toBe(
      'outside_workspace',
    );
    expect((await refusal(run(tools.write_file, { path: 'linked/deeper/new.txt', content: 'x' }))).code).toBe(
      'outside_workspace',
    );
    expect(
      (await refusal(run(tools.edit_file, { path: 'linked/new.txt', old_string: '', new_string: 'x' }))).code,
    ).toBe('outside_workspace');
    expect(await readdir(join(box.outside, 'dir'))).toEqual(['secret.txt']);
  });

  test('walks list outside links but never follow them', async () => {
    await box.link('linked', join(box.outside, 'dir'));
    await box.link('leak.txt', join(box.outside, 'secret.txt'));
    const tools = box.tools();
    expect(await run(tools.list_files, { depth: 5 })).toBe(
      ['inside.txt', 'leak.txt@', 'linked@', 'sub/', 'sub/file.txt'].join('\n'),
    );
    expect(await run(tools.grep, { pattern: 'SECRET' })).toMatch(/^No matches/);
    expect(await run(tools.glob, { pattern: '**/secret.txt' })).toMatch(/^No paths match/);
  });

  test('links that stay inside the root are followed', async () => {
    await box.link('alias.txt', 'sub/file.txt');
    await box.link('alias-dir', 'sub');
    const tools = box.tools();
    expect(await run(tools.read_file, { path: 'alias.txt' })).toContain('sub text');
    expect(await run(tools.list_files, { path: 'alias-dir' })).toBe('alias-dir/file.txt');
    await run(tools.edit_file, { path: 'alias.txt', old_string: 'sub text', new_string: 'edited' });
    expect(await readFile(join(box.root, 'sub/file.txt'), 'utf8')).toBe('edited\n');
  });

  test('a symlink loop is a clear error', async () => {
    await box.link('loop-a', 'loop-b');
    await box.link('loop-b', 'loop-a');
    const tools = box.tools();
    for (const [name, input] of [
      ['read_file', { path: 'loop-a' }],
      ['read_file', { path: 'loop-a/file.txt' }],
      ['write_file', { path: 'loop-a', content: 'x' }],
      ['list_files', { path: 'loop-b' }],
    ] as const) {
      const error = await refusal(run(tools[name], input));
      expect(error.code).toBe('symlink_loop');
      expect(error.message).toMatch(/symbolic link loop \(ELOOP\)/);
      expect(error.message).toContain(box.root);
    }
  });

  test('a dangling link is not written through', async () => {
    await box.link('dangling.txt', join(box.outside, 'not-yet.txt'));
    await box.link('dangling-dir', join(box.outside, 'not-yet-dir'));
    const tools = box.tools();
    expect((await refusal(run(tools.write_file, { path: 'dangling.txt', content: 'x' }))).code).toBe(
      'dangling_symlink',
    );
    expect((await refusal(run(tools.write_file, { path: 'dangling-dir/a/b.txt', content: 'x' }))).code).toBe(
      'dangling_symlink',
    );
    expect(await readdir(box.outside)).toEqual(['dir', 'secret.txt']);
  });
});

describe('a path swapped between check and use', () => {
  test('a file replaced by a link to outside after it was checked is not read', async () => {
    let swapped = 0;
    const tools = box.tools({
      operations: {
        async open(path, flags, mode) {
          if (path === join(box.root, 'inside.txt') && swapped++ === 0) {
            await rm(path);
            await symlink(join(box.outside, 'secret.txt'), path);
          }
          return nodeFileSystemOperations.open(path, flags, mode);
        },
      },
    });
    const error = await refusal(run(tools.read_file, { path: 'inside.txt' }));
    expect(swapped).toBe(1);
    expect(error.code).toBe('changed_during_use');
    expect(error.message).toContain('inside.txt');
    expect(error.message).not.toContain(secretText);
  });

  test('a parent directory replaced by a link to outside after the check is caught after opening', async () => {
    await mkdir(join(box.outside, 'sub'));
    await writeFile(join(box.outside, 'sub', 'file.txt'), secretText);
    let swapped = 0;
    const tools = box.tools({
      operations: {
        async open(path, flags, mode) {
          if (path === join(box.root, 'sub/file.txt') && swapped++ === 0) {
            await rename(join(box.root, 'sub'), join(box.root, 'sub-moved'));
            await symlink(join(box.outside, 'sub'), join(box.root, 'sub'));
          }
          return nodeFileSystemOperations.open(path, flags, mode);
        },
      },
    });
    for (const [name, input] of [
      ['read_file', { path: 'sub/file.txt' }],
      ['grep', { pattern: 'SECRET', path: 'sub/file.txt' }],
    ] as const) {
      swapped = 0;
      await rm(join(box.root, 'sub'), { recursive: true, force: true });
      await rm(join(box.root, 'sub-moved'), { recursive: true, force: true });
      await box.files({ 'sub/file.txt': 'sub text\n' });
      const error = await refusal(run(tools[name], input));
      expect(swapped).toBe(1);
      expect(error.code).toBe('changed_during_use');
      expect(error.message).not.toContain(secretText);
    }
  });

  test('the same swap is caught by the inode check alone where /proc is not available', async () => {
    await mkdir(join(box.outside, 'sub'));
    await writeFile(join(box.outside, 'sub', 'file.txt'), secretText);
    const tools = box.tools({
      operations: {
        // No /proc: the handle's location cannot be read back, as on macOS.
        realpath: (path) =>
          path.startsWith('/proc/')
            ? Promise.reject(Object.assign(new Error('no /proc'), { code: 'ENOENT' }))
            : nodeFileSystemOperations.realpath(path),
        async open(path, flags, mode) {
          if (path === join(box.root, 'sub/file.txt')) {
            await rename(join(box.root, 'sub'), join(box.root, 'sub-moved'));
            await symlink(join(box.outside, 'sub'), join(box.root, 'sub'));
          }
          return nodeFileSystemOperations.open(path, flags, mode);
        },
      },
    });
    const error = await refusal(run(tools.read_file, { path: 'sub/file.txt' }));
    expect(error.code).toBe('changed_during_use');
    expect(error.message).toMatch(/was replaced between the path check and opening it/);
  });

  test('a write whose directory became a link to outside is refused and leaves nothing behind', async () => {
    const tools = box.tools({
      operations: {
        async open(path, flags, mode) {
          if (path.startsWith(join(box.root, 'sub', '.new.txt.'))) {
            await rename(join(box.root, 'sub'), join(box.root, 'sub-moved'));
            await symlink(join(box.outside, 'dir'), join(box.root, 'sub'));
          }
          return nodeFileSystemOperations.open(path, flags, mode);
        },
      },
    });
    const error = await refusal(run(tools.write_file, { path: 'sub/new.txt', content: 'x' }));
    expect(error.code).toBe('changed_during_use');
    expect(await readdir(join(box.outside, 'dir'))).toEqual(['secret.txt']);
    expect(await readdir(join(box.root, 'sub-moved'))).toEqual(['file.txt']);
  });
});

test('a missing root is a clear error naming it', async () => {
  const tools = box.tools({ root: join(box.root, 'missing') });
  const error = await refusal(run(tools.list_files, {}));
  expect(error.code).toBe('root_unusable');
  expect(error.message).toContain(join(box.root, 'missing'));
});

test('paths with a NUL character are refused', async () => {
  const error = await refusal(run(box.tools().read_file, { path: 'inside.txt\0.png' }));
  expect(error.code).toBe('invalid_path');
});

test('a directory swapped for a link to outside while it is listed is refused, and nothing outside is shown', async () => {
  await mkdir(join(box.outside, 'sub'));
  await writeFile(join(box.outside, 'sub', 'outside-name.txt'), secretText);
  let swapped = 0;
  const tools = box.tools({
    operations: {
      async readdir(path, options) {
        if (path === join(box.root, 'sub') && swapped++ === 0) {
          await rename(join(box.root, 'sub'), join(box.root, 'sub-moved'));
          await symlink(join(box.outside, 'sub'), join(box.root, 'sub'));
        }
        return nodeFileSystemOperations.readdir(path, options);
      },
    },
  });
  const error = await refusal(run(tools.list_files, { path: 'sub' }));
  expect(swapped).toBe(1);
  expect(error.code).toBe('changed_during_use');
  expect(error.message).not.toContain('outside-name');
});

describe('paths no file system takes', () => {
  const hostile = [
    ['a path of 10,000 characters', 'x'.repeat(10_000)],
    ['a name of 300 characters', `sub/${'y'.repeat(300)}.txt`],
    ['a path of 3,000 folders', `${'d/'.repeat(3000)}f.txt`],
    ['a NUL byte', 'inside.txt\0../../outside/secret.txt'],
  ] as const;

  test.each(hostile)(
    '%s: every tool refuses it as invalid_path, quoting only its start',
    async (_label, path) => {
      const tools = box.tools();
      // Each refusal is awaited from the start: one settling while another is awaited is never unhandled.
      const refusals = [
        refusal(run(tools.read_file, { path })),
        refusal(run(tools.write_file, { path, content: 'x' })),
        refusal(run(tools.edit_file, { path, old_string: 'a', new_string: 'b' })),
        refusal(run(tools.list_files, { path })),
      ];
      for (const refused of refusals) {
        const error = await refused;
        expect(error.code).toBe('invalid_path');
        expect(error.message.length).toBeLessThan(400);
      }
      // Nothing was written.
      expect((await readdir(box.root)).sort()).toEqual(['inside.txt', 'sub']);
    },
  );
});
