import { describe, expect, it } from 'vitest';
import {
  getDefaultOrchestratorName,
  getOrchestrator,
  getProvider,
  listOrchestrators,
  listProviders,
  type Orchestrator,
  type Provider,
  RegistryError,
  registerOrchestrator,
  registerProvider,
  setDefaultOrchestrator,
} from '../index.js';

const provider: Provider = { name: 'p', stream: async function* () {} };
const orchestrator: Orchestrator = { name: 'o', run: async () => ({ reason: 'completed' }) };

describe('registries', () => {
  it('register, look up, list and undo', () => {
    const undo = registerProvider('test-provider', () => provider);
    expect(listProviders()).toContain('test-provider');
    expect(getProvider('test-provider')).toBe(provider);
    undo();
    expect(listProviders()).not.toContain('test-provider');
  });

  it('an unknown name lists the registered ones', () => {
    const undo = registerOrchestrator('known-one', () => orchestrator);
    try {
      getOrchestrator('missing');
      expect.fail('should throw');
    } catch (error) {
      expect(RegistryError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /No orchestrator named 'missing' is registered. Registered: .*known-one/,
      );
    } finally {
      undo();
    }
  });

  it('duplicates throw unless told to keep or replace', () => {
    const undo = registerProvider('dup', () => provider);
    expect(() => registerProvider('dup', () => provider)).toThrow(/already registered/);
    registerProvider('dup', () => ({ ...provider, name: 'kept?' }), { onDuplicate: 'keep' });
    expect(getProvider('dup').name).toBe('p');
    const undoReplace = registerProvider('dup', () => ({ ...provider, name: 'replaced' }), {
      onDuplicate: 'replace',
    });
    expect(getProvider('dup').name).toBe('replaced');
    undoReplace();
    undo();
  });

  it('live on globalThis, shared by every copy of core', () => {
    const undo = registerOrchestrator('shared-one', () => orchestrator, { isDefault: true });
    const key = Symbol.for('agent-core.registries.v1');
    const shared = (globalThis as Record<symbol, { orchestrators: Map<string, unknown> }>)[key];
    expect(shared?.orchestrators.has('shared-one')).toBe(true);
    expect(getDefaultOrchestratorName()).toBe('shared-one');
    undo();
    expect(listOrchestrators()).not.toContain('shared-one');
    expect(getDefaultOrchestratorName()).not.toBe('shared-one');
    expect(() => setDefaultOrchestrator('shared-one')).toThrow(RegistryError);
  });
});
