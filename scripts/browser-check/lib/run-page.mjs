// Opens the page in headless Chromium through playwright-core (Debian's Chromium: the
// browser downloads of test tools do not work offline) and collects what it reports.
import { chromium } from 'playwright-core';

/** The host name that Chromium maps to 127.0.0.1: a plain http:// origin that is not localhost. */
export const plainHttpHost = 'agent-core.test';

// Headless, no sandbox (CI runs as root), and no background traffic: on a closed network
// Chromium's own connections are refused, and a proxy from the environment must not
// carry the page's requests.
const launchArguments = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-proxy-server',
  `--host-resolver-rules=MAP ${plainHttpHost} 127.0.0.1`,
];

/**
 * @typedef {{ name: string, ok: boolean, details: string, durationMs: number }} ScenarioResult
 * @typedef {{ isSecureContext: boolean, randomUUID: string, nodeGlobals: string[], scenarios: string[], results: ScenarioResult[], finished: boolean }} PageReport
 * @typedef {{ report: PageReport | undefined, errors: string[] }} PageRun
 */

/**
 * Starts Chromium; `close` ends it. Each `open` gets a fresh browser context (no shared storage).
 * @param {string} executablePath
 */
export async function launchChromium(executablePath) {
  // playwright-core makes a fresh, temporary user data dir for every launch.
  const browser = await chromium.launch({ executablePath, headless: true, args: launchArguments });
  return {
    version: browser.version(),
    /**
     * Loads `url`, waits until the page says it has finished (or `timeoutMs`), and returns its
     * report with every page error, console error and failed request.
     * @param {string} url
     * @param {number} timeoutMs
     * @returns {Promise<PageRun>}
     */
    async open(url, timeoutMs) {
      const context = await browser.newContext();
      const page = await context.newPage();
      /** @type {string[]} */
      const errors = [];
      page.on('pageerror', (error) => errors.push(`page error: ${error.stack ?? error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
      });
      page.on('requestfailed', (request) =>
        errors.push(`request failed: ${request.url()} (${request.failure()?.errorText ?? 'unknown'})`),
      );
      try {
        await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
        // A page that does not finish in time is reported by the scenarios it did not finish.
        await page
          .waitForFunction(() => globalThis.agentCoreCheck?.finished === true, undefined, {
            timeout: timeoutMs,
          })
          .catch(() => {});
        /** @type {PageReport | undefined} */
        const report = await page.evaluate(() => globalThis.agentCoreCheck);
        return { report, errors };
      } catch (error) {
        errors.push(`loading ${url} failed: ${error instanceof Error ? error.message : String(error)}`);
        return { report: undefined, errors };
      } finally {
        await context.close();
      }
    },
    close: () => browser.close(),
  };
}
