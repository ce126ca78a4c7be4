import { describe, expect, it } from 'vitest';
import { ProviderError } from '../provider/provider-error.js';
import { inlineProvider } from '../test-support/inline-provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { MemorySessionStore } from './memory-session-store.js';
import { SessionManager } from './session-manager.js';

describe("a failed run's end in the events log", () => {
  it('records why the run failed, without secrets, so any process can show it', async () => {
    const store = new MemorySessionStore();
    const provider = inlineProvider([
      [
        {
          type: 'error',
          error: new ProviderError({
            kind: 'invalid_request',
            message: 'bad request for key sk-ant-api03-abcdefghijkl',
          }),
        },
      ],
    ]);
    const manager = new SessionManager({
      store,
      agentOptions: () => ({ provider, model: 'm', orchestrator: stepOrchestrator }),
    });
    const session = await manager.create();
    const result = await session.prompt('hello').result();
    expect(result.terminateReason).toBe('error');
    const ended = (await store.read(session.id))
      .map((record) => record.event)
      .find((event) => event.type === 'run_ended');
    expect(ended?.type === 'run_ended' && ended.error).toEqual({
      code: result.error?.code,
      message: expect.stringContaining('bad request'),
    });
    expect(JSON.stringify(ended)).not.toContain('abcdefghijkl');
  });

  it('records no error for a run that completed', async () => {
    const store = new MemorySessionStore();
    const provider = inlineProvider([
      [
        {
          type: 'done',
          message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }], stopReason: 'end_turn' },
        },
      ],
    ]);
    const manager = new SessionManager({
      store,
      agentOptions: () => ({ provider, model: 'm', orchestrator: stepOrchestrator }),
    });
    const session = await manager.create();
    await session.prompt('hello').result();
    const ended = (await store.read(session.id))
      .map((record) => record.event)
      .find((event) => event.type === 'run_ended');
    expect(ended).toBeDefined();
    expect(ended !== undefined && 'error' in ended).toBe(false);
  });
});
