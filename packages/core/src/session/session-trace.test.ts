import { describe, expect, it } from 'vitest';
import type { AgentEvent, AssistantMessage, Provider } from '../index.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { MemorySessionStore } from './memory-session-store.js';
import { SessionManager } from './session-manager.js';

const provider: Provider = {
  name: 'scripted',
  async *stream() {
    const message: AssistantMessage = {
      role: 'assistant',
      content: [{ type: 'text', text: 'ok' }],
      stopReason: 'end_turn',
    };
    yield { type: 'done', message };
  },
};

function manager(store: MemorySessionStore) {
  return new SessionManager({
    store,
    agentOptions: () => ({ provider, model: 'm', orchestrator: stepOrchestrator }),
  });
}

describe('a session keeps the trace of its first run', () => {
  it('runs in another process link to the first run’s trace', async () => {
    const store = new MemorySessionStore();
    const session = await manager(store).create();
    const first = await session.prompt('one').result();
    expect(session.toJSON().trace).toEqual({ traceId: first.traceId, spanId: first.spanId });

    const again = await manager(store).get(session.id);
    expect(again.toJSON().trace).toEqual({ traceId: first.traceId, spanId: first.spanId });
    const starts: AgentEvent[] = [];
    again.agent.subscribe((event) => event.type === 'agent_start' && starts.push(event));
    const second = await again.prompt('two').result();
    expect(second.traceId).not.toBe(first.traceId);
    const start = starts[0];
    expect(start?.type === 'agent_start' && start.links).toEqual([
      { traceId: first.traceId, spanId: first.spanId },
    ]);
    // The first trace stays the session's, whatever runs come after.
    expect((await manager(store).get(session.id)).toJSON().trace?.traceId).toBe(first.traceId);
  });
});
