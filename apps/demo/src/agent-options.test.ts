import { describe, expect, it, vi } from 'vitest';
import { agentOptions } from './agent-options.js';
import { parseCliArguments } from './parse-args.js';

async function optionsFor(argv: string[]) {
  const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    return await agentOptions(parseCliArguments(argv), [], undefined, undefined);
  } finally {
    write.mockRestore();
  }
}

// No request is made: the providers are only built.
const server = ['--base-url', 'http://127.0.0.1:9/v1'];

describe('agentOptions', () => {
  it('gives a context window that summarizes with the same model when the provider knows its size', async () => {
    const options = await optionsFor(['chat', ...server, '--model', 'gpt-4o', 'hi']);
    expect(options.provider.modelInfo?.('gpt-4o')?.contextWindow).toBeGreaterThan(0);
    expect(options.contextWindow).toEqual({ summarize: expect.any(Function) });
  });

  it('runs without a window with --no-compact, or when the model size is unknown (offline model, unknown model)', async () => {
    expect(
      (await optionsFor(['chat', ...server, '--model', 'gpt-4o', '--no-compact', 'hi'])).contextWindow,
    ).toBeUndefined();
    expect((await optionsFor(['chat', ...server, '--model', 'llama3', 'hi'])).contextWindow).toBeUndefined();
    expect((await optionsFor(['chat', 'hi'])).contextWindow).toBeUndefined();
  });

  it('passes the logger of --log-level, and none without it', async () => {
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const args = parseCliArguments(['chat', '--log-level', 'debug', 'hi']);
      expect(args.logLevel).toBe('debug');
      expect((await agentOptions(args, [], undefined, logger)).logger).toBe(logger);
    } finally {
      write.mockRestore();
    }
    expect((await optionsFor(['chat', 'hi'])).logger).toBeUndefined();
  });
});
