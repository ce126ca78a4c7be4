import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, defineTool, ToolRegistry, validateJsonSchema } from '../index.js';
import { loadSchemaSupport, prepareTool } from './prepare-tool.js';

const add = defineTool({
  name: 'add',
  description: 'Adds',
  parameters: z.object({ a: z.number(), b: z.number().default(0) }),
  execute: ({ a, b }) => String(a + b),
});

describe('defineTool', () => {
  it('refuses names some provider would refuse, and missing parts', () => {
    const base = { description: '', parameters: z.object({}), execute: () => '' };
    expect(() => defineTool({ ...base, name: 'has space' })).toThrow(ConfigError);
    expect(() => defineTool({ ...base, name: 'x'.repeat(65) })).toThrow(/1 to 64 letters/);
    expect(() => defineTool({ ...base, name: 'ok', timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() =>
      defineTool({ name: 'ok', description: '', parameters: null as never, execute: () => '' }),
    ).toThrow(/needs parameters/);
  });

  it('converts a zod schema to JSON Schema with zod, once, and validates with it', async () => {
    await loadSchemaSupport([add]);
    const prepared = prepareTool(add);
    expect(prepareTool(add)).toBe(prepared);
    expect(prepared.spec.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number', default: 0 } },
      required: ['a'],
    });
    expect(prepared.spec.parameters.$schema).toBeUndefined();
    expect(prepared.validate({ a: 1 })).toEqual({ ok: true, value: { a: 1, b: 0 } });
    const bad = prepared.validate({ a: 'one' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toMatch(/^input\.a: /);
  });

  it('passes a raw JSON Schema through and validates against it', () => {
    const tool = defineTool({
      name: 'raw',
      description: 'raw schema',
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' } },
        required: ['path'],
        additionalProperties: false,
      },
      execute: (input) => String(input.path),
    });
    const prepared = prepareTool(tool);
    expect(prepared.spec.parameters).toBe(tool.parameters);
    expect(prepared.validate({ path: 'a' }).ok).toBe(true);
    const bad = prepared.validate({ extra: 1 });
    expect(!bad.ok && bad.message).toBe('input.path is required; input.extra is not an expected property');
  });
});

describe('validateJsonSchema', () => {
  it.each([
    [{ type: 'integer' }, 1.5, ['input should be integer, got number']],
    [{ type: 'array', items: { type: 'string' } }, ['a', 2], ['input[1] should be string, got number']],
    [{ enum: ['a', 'b'] }, 'c', ['input should be one of "a", "b"']],
    [{ type: 'string', minLength: 2 }, 'a', ['input should have at least 2 characters']],
    [
      { anyOf: [{ type: 'string' }, { type: 'number' }] },
      true,
      ['input does not match any of the allowed shapes'],
    ],
    [{ type: ['string', 'null'] }, null, []],
    [
      { type: 'object', properties: { n: { type: 'number', maximum: 3 } } },
      { n: 4 },
      ['input.n should be <= 3'],
    ],
  ])('%j with %j', (schema, value, problems) => {
    expect(validateJsonSchema(schema, value)).toEqual(problems);
  });
});

describe('ToolRegistry', () => {
  it('registers tools, refuses duplicates and resolves packs in order without duplicates', () => {
    const registry = new ToolRegistry([add]);
    expect(() => registry.register(add)).toThrow(/already registered/);
    registry.registerPack('math', [add]);
    registry.registerPack('more', () => [add, { ...add, name: 'add2' }]);
    expect(registry.resolvePacks(['math', 'more']).map((tool) => tool.name)).toEqual(['add', 'add2']);
    expect(() => registry.resolvePacks(['nope'])).toThrow(
      /No tool pack named 'nope' is registered. Registered: math, more/,
    );
    expect(registry.unregister('add')).toBe(true);
    expect(registry.list()).toEqual([]);
  });
});
