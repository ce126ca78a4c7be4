import { expect, test } from 'vitest';
import { buildShellEnvironment, inheritedEnvironmentNames } from './shell-environment.js';

const parent = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/me',
  LANG: 'C.UTF-8',
  OPENAI_API_KEY: 'sk-secret',
  AWS_SECRET_ACCESS_KEY: 'also-secret',
};

test('only the minimal set is inherited, plus PWD', () => {
  expect(buildShellEnvironment({ parent, cwd: '/work' })).toEqual({
    PATH: '/usr/bin:/bin',
    HOME: '/home/me',
    LANG: 'C.UTF-8',
    PWD: '/work',
  });
  expect(inheritedEnvironmentNames).not.toContain('OPENAI_API_KEY');
});

test('env is set on top, and undefined removes a variable', () => {
  expect(
    buildShellEnvironment({ parent, cwd: '/work', env: { HOME: undefined, CI: '1', LANG: 'en_GB.UTF-8' } }),
  ).toEqual({ PATH: '/usr/bin:/bin', LANG: 'en_GB.UTF-8', PWD: '/work', CI: '1' });
});

test('inheritEnv passes everything', () => {
  expect(buildShellEnvironment({ parent, cwd: '/work', inheritEnv: true })).toMatchObject({
    OPENAI_API_KEY: 'sk-secret',
    AWS_SECRET_ACCESS_KEY: 'also-secret',
  });
});

test('a missing PATH gets a standard one so commands are found', () => {
  expect(buildShellEnvironment({ parent: {}, cwd: '/work' }).PATH).toBe('/usr/local/bin:/usr/bin:/bin');
});
