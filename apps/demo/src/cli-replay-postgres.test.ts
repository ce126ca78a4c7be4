import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';
import { describe, expect, it } from 'vitest';
import { makeHome, runCli } from './test-support/run-cli.js';

// `agent-core replay` with its sessions in PostgreSQL: a real server, started for this file (or AGENT_CORE_PG_URL).
const { server } = usePostgresServer({ startTimeoutMs: 120_000 });

describe('agent-core replay --store postgres://', { timeout: 90_000 }, () => {
  it('reproduces a stored session, diverges after the prompt or a tool changes, and replays up to a damaged record', async () => {
    const home = makeHome();
    const options = { home, cwd: home, env: { AGENT_CORE_STORE: server.url } };
    writeFileSync(join(home, 'note.txt'), 'buy milk');
    const chat = await runCli(['chat', '--tools', 'fs', 'call read_file {"path":"note.txt"}'], options);
    expect(chat.code).toBe(0);
    const id = /^([0-9a-f-]{36})\s/m.exec(
      (await runCli(['sessions', 'list'], options)).stdout,
    )?.[1] as string;
    expect(id).toBeDefined();

    const same = await runCli(['replay', id], options);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain(
      `Reproduced: 2 model calls and the tool calls as recorded in session ${id}.`,
    );

    // A tool answers otherwise: the second model call is sent a result the session never had.
    writeFileSync(join(home, 'note.txt'), 'buy bread');
    const tool = await runCli(['replay', id], options);
    expect(tool.code).toBe(1);
    expect(tool.stdout).toContain('Diverged: model call 2 sends a request the session never sent.');
    expect(tool.stdout).toContain("messages[2].content in messages[2] (toolResult of call_1 'read_file')");
    expect(tool.stdout).toContain('Tool calls that differ:\n  call 1 read_file {"path":"note.txt"}:');
    writeFileSync(join(home, 'note.txt'), 'buy milk');

    // The project's prompt changes: the first model call already differs.
    mkdirSync(join(home, '.agent-core'));
    writeFileSync(join(home, '.agent-core', 'system_prompt.md'), 'You read notes aloud.');
    const prompt = await runCli(['replay', id], options);
    expect(prompt.code).toBe(1);
    expect(prompt.stdout).toContain('Diverged: model call 1 sends a request the session never sent.');
    expect(prompt.stdout).toMatch(/ {4}after: {2}"You read notes aloud\./);

    rmSync(join(home, '.agent-core'), { recursive: true });

    // The answer's log record is damaged in the database: the session replays up to it, and says where.
    const { rows } = await server.admin.query(
      `SELECT max(seq) AS seq FROM agent_core_session_events WHERE session_id = $1 AND event->>'type' = 'message'`,
      [id],
    );
    const seq = Number(rows[0].seq);
    await server.admin.query(
      `UPDATE agent_core_session_events SET event = '{"type":"mystery"}' WHERE session_id = $1 AND seq = $2`,
      [id, seq],
    );
    const damaged = await runCli(['replay', id], options);
    expect(damaged.stderr).toContain(
      `agent-core: session ${id} is damaged at record ${seq} of the events log`,
    );
    expect(damaged.stderr).toContain('it is not a log event agent-core writes (type "mystery")');
    expect(damaged.code).toBe(0);
    expect(damaged.stdout).toContain('up to where its log is damaged');
  });
});
