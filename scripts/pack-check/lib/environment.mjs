// The environment of the commands that play the user: nothing of the workspace
// (no npm_* run settings from `npm run`, no node_modules/.bin on PATH, no NODE_PATH)
// and no API keys, so an offline run is really offline.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

// The user's own npm settings that a CI or a developer may set through the environment
// (a registry mirror, a proxy, certificates, the cache). Everything else `npm run` puts in
// npm_* describes the workspace's own run (its prefix, package, lifecycle) and must not leak.
const keptNpmSettings = new Set(
  [
    'registry',
    'cache',
    'cafile',
    'ca',
    'userconfig',
    'globalconfig',
    'proxy',
    'https_proxy',
    'noproxy',
    'strict_ssl',
  ].map((name) => `npm_config_${name}`),
);

/**
 * @param {Record<string, string>} [extra]
 * @returns {NodeJS.ProcessEnv}
 */
export function userEnvironment(extra = {}) {
  /** @type {NodeJS.ProcessEnv} */
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if ((/^npm_/i.test(key) && !keptNpmSettings.has(key.toLowerCase())) || /^pnpm_/i.test(key)) continue;
    if (/^(ANTHROPIC|OPENAI)_/.test(key)) continue;
    if (key === 'NODE_PATH' || key === 'NODE_OPTIONS' || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.includes(`node_modules${'/'}.bin`) && !entry.includes('node-gyp-bin'))
    .join(delimiter);
  env.npm_config_update_notifier = 'false';
  env.npm_config_fund = 'false';
  env.npm_config_audit = 'false';
  env.NO_COLOR = '1';
  return { ...env, ...extra };
}

/** npm's options for every install of the check: quiet, and the npm cache used without revalidation when warm. */
export const npmInstallOptions = ['--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline'];

/**
 * A new folder outside the workspace.
 * @param {string} parent
 * @param {string} name
 */
export function freshFolder(parent, name) {
  return mkdtempSync(join(parent ?? tmpdir(), `${name}-`));
}
