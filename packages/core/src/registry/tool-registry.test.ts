import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, RegistryError, ToolRegistry, registerToolPack } from '../index.js';

describe('ToolRegistry.resolvePacks', () => {
  const undo: (() => void)[] = [];
  afterEach(() => {
    for (const step of undo.splice(0)) step();
  });

  it("reports a pack factory's own error, not an unknown pack", () => {
    undo.push(
      registerToolPack('needs-cwd', () => {
        throw new ConfigError("The shell pack needs 'cwd': pass { cwd: '/path/to/workspace' }.");
      }),
    );
    let thrown: unknown;
    try {
      new ToolRegistry().resolvePacks(['needs-cwd']);
    } catch (error) {
      thrown = error;
    }
    expect(ConfigError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(/needs 'cwd'/);
    expect((thrown as Error).message).not.toMatch(/No tool pack named/);
  });

  it('lists local and global pack names when a pack is unknown', () => {
    undo.push(registerToolPack('global-pack', () => []));
    const registry = new ToolRegistry().registerPack('local-pack', []);
    expect(() => registry.resolvePacks(['nope'])).toThrow(RegistryError);
    expect(() => registry.resolvePacks(['nope'])).toThrow(/Registered: local-pack, global-pack/);
  });
});
