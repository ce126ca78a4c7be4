import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { stdioServer } from './test-support/servers.js';

const tracer = fileURLToPath(new URL('./test-support/trace-sdk-imports.mjs', import.meta.url));
const entry = new URL('../dist/index.js', import.meta.url).href;

/** Runs an ES module script in a fresh Node process that reports every SDK module it loads. */
function sdkModulesLoadedBy(script: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', tracer, '--input-type=module', '--eval', script],
      { encoding: 'utf8' },
      (error, _stdout, stderr) => {
        if (error !== null) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(stderr.split('\n').filter((line) => line.startsWith('SDK ')));
      },
    );
  });
}

describe('the MCP SDK is loaded on the first connect, not at import', () => {
  test('importing the package (which registers the mcp tool pack) loads no SDK module', async () => {
    const loaded = await sdkModulesLoadedBy(`
      const tools = await import(${JSON.stringify(entry)});
      const core = await import('@agent-core/core');
      if (typeof tools.mcpTools !== 'function' || !core.listToolPacks().includes('mcp')) process.exit(3);
    `);
    expect(loaded).toEqual([]);
  });

  test('connecting a server loads it', async () => {
    const config = stdioServer();
    const loaded = await sdkModulesLoadedBy(`
      const { mcpTools } = await import(${JSON.stringify(entry)});
      const mcp = await mcpTools({ servers: { one: ${JSON.stringify(config)} } });
      if (mcp.servers.one.state !== 'connected') process.exit(3);
      await mcp.close();
    `);
    expect(loaded.some((line) => line.includes('/client/index.js'))).toBe(true);
  });
});
