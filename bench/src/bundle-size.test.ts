import { describe, expect, it } from 'vitest';
import { bundleCases, bytesByPackage, measureBundle } from './bundle-size.js';

// What a browser app's bundle holds of zod because of core, whatever core's own size.
describe('a browser bundle of core', () => {
  it('with JSON Schema tools holds only the zod it may need: no classic API, no locale', async () => {
    const size = await measureBundle(bundleCases.jsonSchemaTool);
    const zodModules = [...size.modules.keys()].filter((path) => path.startsWith('zod/'));
    expect(zodModules.filter((path) => path.startsWith('zod/v4/classic/'))).toEqual([]);
    expect(
      zodModules.filter((path) => path.startsWith('zod/v4/locales/') && !path.endsWith('/index.js')),
    ).toEqual([]);
    expect(bytesByPackage(size).get('@agent-core/core')).toBeGreaterThan(0);
  });

  it('of its whole root entry loads zod/mini for sessions, English messages only, never all of zod', async () => {
    const size = await measureBundle(bundleCases.wholeCore);
    const paths = [...size.modules.keys()];
    expect(paths.filter((path) => path.startsWith('zod/v4/classic/'))).toEqual([]);
    expect(paths.filter((path) => path.startsWith('zod/v4/locales/') && !path.endsWith('/index.js'))).toEqual(
      ['zod/v4/locales/en.js'],
    );
    expect(paths.some((path) => path.startsWith('zod/v4/mini/'))).toBe(true);
  });
});
