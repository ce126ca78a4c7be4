import { AgentError } from '@agent-core/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigFileError } from './config-file-error.js';
import { parseConfigText } from './read-config-file.js';

// The config loader on arbitrary text: it never throws anything but ConfigFileError, every problem
// names the file and a line of it, and no key, however hostile, reaches a prototype.

const soak = process.env.AGENT_CORE_SOAK === '1';
const seed = Number(process.env.AGENT_CORE_SEED);
const settings = (short: number, long: number) => ({
  numRuns: soak ? long : short,
  ...(Number.isInteger(seed) ? { seed } : {}),
});
const path = '/home/user/.config/agent-core/config.toml';

// Keys the loader knows, keys that name Object.prototype's members, and keys that reach prototypes.
const keys = fc.constantFrom(
  'provider',
  'model',
  'orchestrator',
  'tools',
  'policy',
  'store',
  'log_level',
  'context_window',
  'providers',
  'aliases',
  'mcp_servers',
  'type',
  'base_url',
  'api_key',
  'command',
  'args',
  'env',
  'url',
  'headers',
  'profile',
  'risk',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '"__proto__"',
  "'constructor'",
  'polluted',
  'a.b.c',
  'x y',
  '',
);
const scalars = fc.oneof(
  fc.string().map((text) => JSON.stringify(text)),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(
    'true',
    'false',
    'inf',
    'nan',
    '1979-05-27T07:32:00Z',
    '"http://user:pw@host/v1"',
    "'''\n'''",
  ),
);
const value: fc.Arbitrary<string> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalars,
    fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
    fc
      .array(fc.tuple(keys, tie('value')), { maxLength: 3 })
      .map((pairs) => `{ ${pairs.map(([key, item]) => `${key} = ${item}`).join(', ')} }`),
  ),
})).value;
const line = fc.oneof(
  fc.tuple(keys, value).map(([key, item]) => `${key} = ${item}`),
  fc.array(keys, { minLength: 1, maxLength: 3 }).map((parts) => `[${parts.join('.')}]`),
  fc.array(keys, { minLength: 1, maxLength: 2 }).map((parts) => `[[${parts.join('.')}]]`),
  fc.string(),
  fc.constantFrom('# comment', '', '\r', '\t', '\u0000', '\ufeff', '"""', "'''"),
);
const tomlLike = fc
  .tuple(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'))
  .map(([lines, separator]) => lines.join(separator));
const anyText = fc.oneof(
  tomlLike,
  fc.string({ unit: 'binary', maxLength: 400 }),
  fc.string({ maxLength: 400 }),
);

describe('the config loader on arbitrary text', () => {
  it('names the line of a table defined only through a dotted header or key', () => {
    const cases: [string, number, string][] = [
      ['[provider.provider]\n', 1, "'provider' must be a non-empty string"],
      ['model = "m"\n\nlog_level.deep = 1\n', 3, "'log_level' must be one of"],
    ];
    for (const [text, line, message] of cases) {
      const error = (() => {
        try {
          parseConfigText(path, text);
        } catch (caught) {
          return caught as ConfigFileError;
        }
        throw new Error(`${JSON.stringify(text)} was accepted`);
      })();
      expect(error.problems[0]?.line).toBe(line);
      expect(error.message).toContain(`${path}:${line}: ${message}`);
    }
  });

  it('answers a config or a ConfigFileError naming the file and a line; nothing reaches a prototype', () => {
    let refused = 0;
    let accepted = 0;
    fc.assert(
      fc.property(anyText, (text) => {
        let loaded: unknown;
        try {
          loaded = parseConfigText(path, text);
          accepted++;
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigFileError);
          expect(AgentError.isInstance(error)).toBe(true);
          const problems = (error as ConfigFileError).problems;
          expect(problems.length).toBeGreaterThan(0);
          const lineCount = text.split(/\r\n|\n|\r/).length;
          for (const problem of problems) {
            expect(problem.path).toBe(path);
            expect(problem.line, problem.message).toBeGreaterThanOrEqual(1);
            expect(problem.line).toBeLessThanOrEqual(lineCount + 1);
          }
          expect((error as Error).message).toMatch(new RegExp(`^${path.replaceAll('.', '\\.')}:\\d+: `));
          refused++;
        }
        expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
        expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
        if (loaded !== undefined) expect(typeof (loaded as { config: unknown }).config).toBe('object');
      }),
      settings(3000, 200_000),
    );
    if (soak) console.log(`config texts: ${accepted} accepted, ${refused} refused with file:line`);
  }, 600_000);
});
