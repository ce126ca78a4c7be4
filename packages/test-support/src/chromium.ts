import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** Where Chromium is: `CHROMIUM_PATH` or Debian's. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless, no sandbox (CI runs as root) and no traffic of Chromium's own: on a
 * closed network its background connections are refused, and a proxy from the
 * environment must not carry the page's requests.
 */
export const chromiumArguments: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-proxy-server',
];

/**
 * Whether the browser tests can run. Under `CI=true` a missing Chromium is an
 * error, never a skip; elsewhere the tests are skipped with a notice.
 */
export function browserAvailable(): boolean {
  if (existsSync(chromiumPath)) return true;
  if (process.env.CI === 'true')
    throw new Error(
      `Chromium is not at ${chromiumPath}: CI must run the studio's browser tests (apt-get install chromium).`,
    );
  console.warn(
    `Skipping the studio's browser tests: no Chromium at ${chromiumPath} (set CHROMIUM_PATH, or apt-get install chromium).`,
  );
  return false;
}

/** Headless Chromium with no traffic of its own and a fresh profile (playwright-core makes one per launch). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: [...chromiumArguments] });
}

/**
 * One Chromium for the tests of the enclosing `describe`: launched before them, closed after them.
 * The handle it returns reaches the browser once launched, so tests use it as the browser.
 */
export function useBrowser(): Browser {
  let launched: Browser | undefined;
  beforeAll(async () => {
    launched = await launchBrowser();
  });
  afterAll(async () => {
    await launched?.close();
  });
  return new Proxy({} as Browser, {
    get(_target, key) {
      if (launched === undefined) throw new Error('Chromium is launched in beforeAll: use it inside a test.');
      const value = Reflect.get(launched, key, launched);
      return typeof value === 'function' ? value.bind(launched) : value;
    },
  });
}
