import { describe, expect, it } from 'vitest';
import { sampleSessionState } from '../testing/session-fixtures.js';
import { parseSessionState } from './parse-session-state.js';

const stored = () => JSON.parse(JSON.stringify(sampleSessionState('parsed'))) as Record<string, unknown>;

describe('parseSessionState', () => {
  it('gives back every field, unknown ones included', async () => {
    const raw = { ...stored(), addedLater: { kept: true } };
    expect(await parseSessionState(structuredClone(raw))).toEqual(raw);
  });

  it('fills fields added since a file was written', async () => {
    const raw = stored();
    delete raw.pendingApprovals;
    delete raw.lastSeq;
    const state = await parseSessionState(raw);
    expect(state.pendingApprovals).toEqual([]);
    expect(state.lastSeq).toBe(0);
  });

  it('names the source and the field of a missing or wrong value', async () => {
    const raw = stored();
    delete raw.createdAt;
    await expect(parseSessionState(raw, { source: '/data/s/session.json' })).rejects.toMatchObject({
      code: 'session_corrupt',
      source: '/data/s/session.json',
      field: 'createdAt',
    });
    const bad = stored();
    (bad.messages as unknown[])[2] = { role: 'assistant', content: 'not blocks', stopReason: 'end_turn' };
    await expect(parseSessionState(bad, { source: 'x.json' })).rejects.toMatchObject({
      field: 'messages.2.content',
    });
    await expect(parseSessionState([], { source: 'x.json' })).rejects.toMatchObject({
      code: 'session_corrupt',
    });
  });

  it('refuses a newer schema version with a clear error, and migrates an older one', async () => {
    await expect(
      parseSessionState({ ...stored(), schemaVersion: 99 }, { source: 'f.json' }),
    ).rejects.toMatchObject({
      code: 'session_schema_unsupported',
      field: 'schemaVersion',
    });
    await expect(parseSessionState({ ...stored(), schemaVersion: 0 })).rejects.toMatchObject({
      code: 'session_schema_unsupported',
    });
    const old = stored();
    old.schemaVersion = 0;
    old.meta = old.metadata;
    delete old.metadata;
    const migrated = await parseSessionState(old, {
      migrations: { 0: ({ meta, ...rest }) => ({ ...rest, metadata: meta }) },
    });
    expect(migrated.schemaVersion).toBe(1);
    expect(migrated.metadata).toEqual(sampleSessionState('parsed').metadata);
  });

  it('says what was wrong in words, with no other zod loaded first', async () => {
    const raw = stored();
    raw.version = -1;
    await expect(parseSessionState(raw, { source: 'x.json' })).rejects.toThrow(
      'Too small: expected number to be >=0',
    );
  });
});
