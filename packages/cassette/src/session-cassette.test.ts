import {
  type AgentMessage,
  type CompactionMessage,
  MemorySessionStore,
  SessionCorruptError,
  type SessionLogRecord,
  SessionManager,
  SessionNotFoundError,
  type SessionStore,
} from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { cassette } from './cassette-provider.js';
import { RequestView } from './request-view.js';
import { sessionCassette } from './session-cassette.js';
import { addTool, agentWith, runPrompt, stable } from './test-support/agent-runs.js';

/** A stored session of two prompts, each answered after one `add` call. */
async function storedSession() {
  const store = new MemorySessionStore();
  const provider = mock({
    turns: [
      { toolCalls: [{ name: 'add', input: { a: 2, b: 3 } }] },
      { text: 'It is 5.' },
      { toolCalls: [{ name: 'add', input: { a: 5, b: 10 } }] },
      { text: 'Then 15.' },
    ],
  });
  const manager = new SessionManager({
    store,
    agentOptions: () => ({
      provider,
      model: 'test-model',
      tools: [addTool()],
      orchestrator: stepOrchestrator,
    }),
  });
  const session = await manager.create();
  const first = await session.prompt('What is 2 + 3?').result();
  const second = await session.prompt('And plus 10?').result();
  await manager.close(session.id);
  return { store, id: session.id, results: [first, second] };
}

/** A store that hands over what `inner` holds, with `records` changed by `edit`. */
function editedStore(
  inner: SessionStore,
  edit: (records: SessionLogRecord[]) => SessionLogRecord[],
): SessionStore {
  return {
    load: (id) => inner.load(id),
    save: (state, options) => inner.save(state, options),
    list: (options) => inner.list(options),
    delete: (id) => inner.delete(id),
    append: (id, entries, options) => inner.append(id, entries, options),
    read: async (id, options) => edit(await inner.read(id, options)),
  };
}

describe('sessionCassette', () => {
  it('turns every model reply of a stored session into an entry that replays it', async () => {
    const { store, id, results } = await storedSession();
    const before = await store.load(id);
    const { cassette: recorded, messages, damage } = await sessionCassette(store, id);
    expect(damage).toBeUndefined();
    expect(recorded.provider).toBe('mock');
    expect(recorded.entries).toHaveLength(4);
    expect(messages).toHaveLength(8);
    expect(recorded.entries[2]?.request).toEqual({
      model: 'test-model',
      messages: [
        { role: 'user', content: 'What is 2 + 3?' },
        {
          role: 'assistant',
          content: [{ type: 'toolCall', id: 'call_1', name: 'add', input: { a: 2, b: 3 } }],
        },
        { role: 'toolResult', toolCallId: 'call_1', toolName: 'add', content: '5', isError: false },
        { role: 'assistant', content: [{ type: 'text', text: 'It is 5.' }] },
        { role: 'user', content: 'And plus 10?' },
      ],
    });

    const player = await cassette({ cassette: recorded });
    const agent = agentWith({ provider: player, systemPrompt: 'Whatever the prompt says today.' });
    const first = await runPrompt(agent, 'What is 2 + 3?');
    const second = await runPrompt(agent, 'And plus 10?');
    expect(player.misses).toEqual([]);
    expect(player.unusedEntries()).toEqual([]);
    expect(stable(first.result.toolCalls)).toEqual(stable(results[0]?.toolCalls));
    expect(second.result.text).toBe('Then 15.');
    expect(stable(second.result.messages)).toEqual(stable(results[1]?.messages));
    expect(await store.load(id)).toEqual(before);
  });

  it('reports where a replay diverges when a tool answers otherwise today', async () => {
    const { store, id } = await storedSession();
    const player = await cassette({ cassette: (await sessionCassette(store, id)).cassette });
    const { result } = await runPrompt(
      agentWith({ provider: player, tools: [addTool(1)] }),
      'What is 2 + 3?',
    );
    expect(result.terminateReason).toBe('error');
    expect(player.misses[0]?.nearest).toBe(1);
    expect(player.misses[0]?.differences[0]).toMatchObject({
      path: 'messages[2].content',
      before: '5',
      after: '6',
    });
  });

  it('says where the log is damaged and replays the history before it', async () => {
    const { store, id } = await storedSession();
    const records = await store.read(id);
    const damagedSeq = (
      records.find(
        (record) => record.event.type === 'message' && record.event.message.role === 'toolResult',
      ) as SessionLogRecord
    ).seq;
    const damaged = editedStore(store, (all) =>
      all.map((record) =>
        record.seq === damagedSeq && record.event.type === 'message'
          ? {
              ...record,
              event: { type: 'message', message: { ...record.event.message, toolCallId: 'gone' } },
            }
          : record,
      ),
    );
    const { cassette: recorded, messages, damage } = await sessionCassette(damaged, id);
    expect(damage).toEqual({
      where: `record ${damagedSeq} of the events log of session '${id}'`,
      message: `the result for 'gone' does not answer the next open tool call ('${(messages[1] as { content: { id: string }[] }).content[0]?.id}').`,
      seq: damagedSeq,
    });
    expect(messages.map((message) => (message as { role: string }).role)).toEqual(['user', 'assistant']);
    expect(recorded.entries).toHaveLength(1);
  });

  it('names a log record that holds no message, or one of a type agent-core never writes', async () => {
    const { store, id } = await storedSession();
    for (const [event, problem] of [
      [{ type: 'message' }, 'a message that is not an object.'],
      [{ type: 'tool_exploded' }, 'it is not a log event agent-core writes (type "tool_exploded").'],
    ] as const) {
      const damaged = editedStore(store, (all) =>
        all.map((record) =>
          record.seq === 3 ? ({ ...record, event } as unknown as SessionLogRecord) : record,
        ),
      );
      const { damage, messages } = await sessionCassette(damaged, id);
      expect(damage).toMatchObject({ seq: 3, message: problem });
      expect(messages.length).toBeLessThan(3);
    }
  });

  it('keeps the snapshot when the store refuses the log, with the store saying where', async () => {
    const { store, id, results } = await storedSession();
    const snapshot = await store.load(id);
    // A snapshot taken after the first prompt, and a log after it that the store cannot read.
    const firstPrompt = (results[0]?.messages ?? []).slice(0, 4);
    const corrupt = new SessionCorruptError('/sessions/s1/events.jsonl', 'line 7 is not a log record.');
    const refusing: SessionStore = {
      ...editedStore(store, (all) => all),
      load: async () => ({ ...snapshot, messages: [...firstPrompt], lastSeq: 7 }),
      read: async () => {
        throw corrupt;
      },
    };
    const { cassette: recorded, messages, damage } = await sessionCassette(refusing, id);
    expect(damage?.where).toBe('/sessions/s1/events.jsonl');
    expect(damage?.message).toContain('line 7 is not a log record.');
    expect(damage?.cause).toBe(corrupt);
    expect(messages).toHaveLength(4);
    expect(recorded.entries).toHaveLength(2);
  });

  it('rejects an id never stored', async () => {
    await expect(sessionCassette(new MemorySessionStore(), 'nobody')).rejects.toBeInstanceOf(
      SessionNotFoundError,
    );
  });
});

describe('RequestView', () => {
  it('shows the history as the context window sent it after a compaction', () => {
    const compaction: CompactionMessage = {
      role: 'compaction',
      content: 'Earlier: the user said hello.',
      keptBefore: [0],
      firstKept: 3,
      droppedMessages: 2,
      tokensBefore: 100,
      tokensAfter: 20,
      summarized: false,
    };
    const history: AgentMessage[] = [
      { role: 'user', content: 'system-level note' },
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: [{ type: 'text', text: 'hi' }], stopReason: 'end_turn' },
      { role: 'user', content: 'and now?' },
      compaction,
      { role: 'assistant', content: [{ type: 'text', text: 'now this' }], stopReason: 'end_turn' },
    ];
    const view = new RequestView(history);
    expect(view.before(2)).toEqual({ messages: history, length: 2 });
    expect(view.before(5).messages).toEqual([
      { role: 'user', content: 'Earlier: the user said hello.' },
      history[0],
      history[3],
    ]);
  });
});
