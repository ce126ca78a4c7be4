import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SessionBusyError } from '../errors/session-busy-error.js';
import { historyProblems } from '../messages/history-problems.js';
import type { AssistantMessage, ModelRequest, Provider, ToolResultMessage } from '../index.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { defineTool } from '../tool/define-tool.js';
import type { AnyTool } from '../tool/tool.js';
import { MemorySessionStore } from './memory-session-store.js';
import type { SessionEvent } from './session-event.js';
import { SessionManager } from './session-manager.js';

/** A stateless model: each reply depends only on the request, so another manager (process) can continue. */
function scripted(reply: (request: ModelRequest) => AssistantMessage | Promise<AssistantMessage>): Provider {
  return {
    name: 'scripted',
    async *stream(request) {
      yield { type: 'done', message: await reply(request) };
    },
  };
}

const text = (value: string): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text: value }],
  stopReason: 'end_turn',
});
const calls = (...list: [string, string, Record<string, unknown>][]): AssistantMessage => ({
  role: 'assistant',
  content: list.map(([id, name, input]) => ({ type: 'toolCall' as const, id, name, input })),
  stopReason: 'tool_use',
});
const results = (request: ModelRequest) =>
  request.messages.filter((message) => message.role === 'toolResult').length;

function manager(
  store: MemorySessionStore,
  provider: Provider,
  tools: AnyTool[] = [],
  snapshotAfter?: number,
) {
  return new SessionManager({
    store,
    agentOptions: () => ({ provider, model: 'm', tools, orchestrator: stepOrchestrator }),
    ...(snapshotAfter === undefined ? {} : { snapshotAfter }),
  });
}

describe('SessionManager', () => {
  it('another manager on the same store gets the session back: id, history and last seq', async () => {
    const store = new MemorySessionStore();
    const provider = scripted((request) => text(`answer ${request.messages.length}`));
    const first = manager(store, provider);
    const session = await first.create({ metadata: { title: 'hello' } });
    await session.prompt('one').result();
    await session.prompt('two').result();
    const again = await manager(store, provider).get(session.id);
    expect(again.id).toBe(session.id);
    expect(again.messages).toEqual(session.messages);
    expect(again.lastSeq).toBe(session.lastSeq);
    expect(again.lastSeq).toBeGreaterThan(0);
    expect(again.status).toBe('idle');
    expect(again.metadata).toEqual({ title: 'hello' });
    expect(again.usage).toEqual(session.usage);
    const result = await again.prompt('three').result();
    expect(result.text).toBe('answer 5');
  });

  it('get of an id never stored fails with SessionNotFoundError, never an empty session', async () => {
    const sessions = manager(
      new MemorySessionStore(),
      scripted(() => text('x')),
    );
    await expect(sessions.get('missing')).rejects.toMatchObject({ code: 'session_not_found' });
    await expect(sessions.get('../etc')).rejects.toMatchObject({ code: 'invalid_session_id' });
  });

  it('a second prompt while one runs gets SessionBusyError and the history is not interleaved', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const provider = scripted(async () => {
      await gate;
      return text('first answer');
    });
    const session = await manager(new MemorySessionStore(), provider).create();
    const run = session.prompt('first');
    expect(() => session.prompt('second')).toThrow(SessionBusyError);
    expect(() => session.resume()).toThrow(SessionBusyError);
    release();
    await run.result();
    expect(session.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('cancel aborts the running prompt; the session ends idle with a valid history', async () => {
    const store = new MemorySessionStore();
    const slow = defineTool({
      name: 'slow',
      description: 'waits',
      parameters: z.object({}),
      execute: (_input, context) =>
        new Promise<string>((resolve) => context.signal.addEventListener('abort', () => resolve('stopped'))),
    });
    const provider = scripted(() => calls(['c1', 'slow', {}], ['c2', 'slow', {}]));
    const sessions = manager(store, provider, [slow]);
    const session = await sessions.create();
    const run = session.prompt('go');
    for await (const event of run) if (event.type === 'tool_call_start') await sessions.cancel(session.id);
    const result = await run.result();
    expect(result.terminateReason).toBe('aborted');
    expect(session.status).toBe('idle');
    expect(historyProblems(session.messages)).toEqual([]);
    const reloaded = await manager(store, provider, [slow]).get(session.id);
    expect(reloaded.status).toBe('idle');
    expect(reloaded.messages).toEqual(session.messages);
  });

  it('logs each tool call before its tool runs, and the prompt before the model sees it', async () => {
    const store = new MemorySessionStore();
    let sessionId = '';
    const seenByTool: SessionEvent[][] = [];
    const seenByModel: SessionEvent[][] = [];
    const log = async () => (await store.read(sessionId)).map((record) => record.event);
    const probe = defineTool({
      name: 'probe',
      description: 'reads the log',
      parameters: z.object({}),
      execute: async () => {
        seenByTool.push(await log());
        return 'ok';
      },
    });
    const provider = scripted(async (request) => {
      seenByModel.push(await log());
      return results(request) === 0 ? calls(['p1', 'probe', {}]) : text('done');
    });
    const session = await manager(store, provider, [probe]).create();
    sessionId = session.id;
    await session.prompt('check the log').result();
    expect(seenByModel[0]?.map((event) => event.type)).toEqual(['run_started', 'message']);
    expect(seenByTool[0]?.at(-1)).toMatchObject({
      type: 'tool_started',
      toolCallId: 'p1',
      toolName: 'probe',
    });
    expect(seenByTool[0]?.at(-2)).toMatchObject({ type: 'message', message: { role: 'assistant' } });
    const types = (await log()).map((event) => event.type);
    expect(types).toEqual([
      'run_started',
      'message',
      'message',
      'tool_started',
      'message',
      'tool_finished',
      'message',
      'run_ended',
    ]);
  });

  it('a session left running: finished calls keep their results, the interrupted one gets an error, the next prompt works', async () => {
    const store = new MemorySessionStore();
    const ran: string[] = [];
    const hang = new Promise<string>(() => {});
    const tool = defineTool({
      name: 'work',
      description: 'works',
      parameters: z.object({ step: z.number() }),
      execute: ({ step }) => {
        ran.push(`step ${step}`);
        return step === 1 ? 'one done' : hang;
      },
    });
    const provider = scripted((request) => {
      const count = results(request);
      if (count === 0) return calls(['w1', 'work', { step: 1 }]);
      if (count === 1) return calls(['w2', 'work', { step: 2 }]);
      return text(`finished after ${count} results`);
    });
    // The first "process" hangs in its second call and is never heard from again.
    const crashed = await manager(store, provider, [tool]).create({ id: 'crash' });
    crashed.prompt('do the work');
    await vi_waitFor(() => ran.length === 2);

    const restored = await manager(store, provider, [tool]).get('crash');
    expect(restored.status).toBe('interrupted');
    const toolResults = restored.messages.filter(
      (message) => message.role === 'toolResult',
    ) as ToolResultMessage[];
    expect(toolResults.map((result) => [result.toolCallId, result.isError])).toEqual([
      ['w1', false],
      ['w2', true],
    ]);
    expect(toolResults[0]?.content).toBe('one done');
    expect(String(toolResults[1]?.content)).toContain('outcome is unknown');
    expect(historyProblems(restored.messages)).toEqual([]);
    const result = await restored.prompt('carry on').result();
    expect(result.terminateReason).toBe('completed');
    expect(ran).toEqual(['step 1', 'step 2']);
    expect(historyProblems(result.messages)).toEqual([]);
    expect(restored.status).toBe('idle');
  });

  it('resume() re-runs an interrupted idempotent call and runs calls that never started', async () => {
    const store = new MemorySessionStore();
    const ran: string[] = [];
    let hangFirst = true;
    const lookup = defineTool({
      name: 'lookup',
      description: 'reads',
      parameters: z.object({ key: z.string() }),
      idempotent: true,
      execute: ({ key }) => {
        ran.push(key);
        if (key === 'a' && hangFirst) return new Promise<string>(() => {});
        return `value of ${key}`;
      },
    });
    const provider = scripted((request) =>
      results(request) === 0
        ? calls(['l1', 'lookup', { key: 'a' }], ['l2', 'lookup', { key: 'b' }])
        : text('all read'),
    );
    const crashed = await manager(store, provider, [lookup]).create({ id: 'idem' });
    crashed.prompt('read both');
    await vi_waitFor(() => ran.length === 1);
    hangFirst = false;
    const restored = await manager(store, provider, [lookup]).get('idem');
    expect(restored.status).toBe('interrupted');
    expect(restored.messages.at(-1)?.role).toBe('assistant');
    const result = await restored.resume().result();
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('all read');
    expect(ran).toEqual(['a', 'a', 'b']);
    expect(historyProblems(result.messages)).toEqual([]);
    const answers = result.messages.filter((message) => message.role === 'toolResult') as ToolResultMessage[];
    expect(answers.map((answer) => answer.content)).toEqual(['value of a', 'value of b']);
  });

  it('rewrites the snapshot only when the log outgrows it: saves grow logarithmically with the steps', async () => {
    const store = new MemorySessionStore();
    let saves = 0;
    const save = store.save.bind(store);
    store.save = (state, options) => {
      saves++;
      return save(state, options);
    };
    const session = await manager(
      store,
      scripted(() => text('ok')),
      [],
      8,
    ).create();
    for (let index = 0; index < 200; index++) await session.prompt(`message ${index}`).result();
    // 400 messages: snapshots at 8, 16, 32, ... messages, never one per prompt.
    expect(saves).toBeLessThanOrEqual(8);
    const again = await manager(
      store,
      scripted(() => text('ok')),
    ).get(session.id);
    expect(again.messages).toEqual(session.messages);
  });

  it('keeps 300 concurrent sessions apart', async () => {
    const store = new MemorySessionStore();
    const provider = scripted((request) => {
      const first = request.messages[0] as { content: string };
      return text(`echo ${first.content}`);
    });
    const sessions = manager(store, provider);
    const opened = await Promise.all(
      Array.from({ length: 300 }, (_, index) => sessions.create({ id: `s${index}` })),
    );
    const answers = await Promise.all(opened.map((session) => session.prompt(session.id).result()));
    expect(answers.map((answer) => answer.text)).toEqual(opened.map((session) => `echo ${session.id}`));
    const page = await sessions.list({ limit: 1000 });
    expect(page.sessions).toHaveLength(300);
    expect(await sessions.remove('s0')).toBe(true);
    await expect(sessions.get('s0')).rejects.toMatchObject({ code: 'session_not_found' });
  });

  it('a store that fails ends the run with an error and runs no tool it could not log', async () => {
    const store = new MemorySessionStore();
    const ran: string[] = [];
    const tool = defineTool({
      name: 'effect',
      description: 'has an effect',
      parameters: z.object({}),
      execute: () => {
        ran.push('ran');
        return 'done';
      },
    });
    const provider = scripted((request) =>
      results(request) === 0 ? calls(['e1', 'effect', {}]) : text('never'),
    );
    const session = await manager(store, provider, [tool]).create();
    const append = store.append.bind(store);
    let appends = 0;
    store.append = (id, entries, options) => {
      if (++appends === 2) return Promise.reject(new Error('disk full'));
      return append(id, entries, options);
    };
    const result = await session.prompt('do it').result();
    expect(ran).toEqual([]);
    expect(result.terminateReason).toBe('error');
    expect(result.error?.message).toContain('disk full');
    expect(historyProblems(result.messages)).toEqual([]);
  });
});

async function vi_waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}
