import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AgentMessage, historyProblems, newSessionState } from '@agent-core/core';
import { migrate, PostgresSessionStore } from '@agent-core/store-postgres';

/** Several processes prompting random sessions of one PostgreSQL store, and what their histories show. */
export interface ContentionCell {
  processes: number;
  sessions: number;
  promptsPerProcess: number;
  wallMs: number;
  completed: number;
  /** Refusals by the code the run ended with (session_busy, session_conflict). */
  refused: Record<string, number>;
  /** Completed prompts missing from their session's history. */
  lost: number;
  /** Prompts found more than once, or found though their run was refused. */
  duplicated: number;
  /** Runs whose four messages were not together: another run's message among them, or a wrong answer. */
  interleaved: number;
  /** Sessions whose history a provider would refuse, or whose log seqs have a gap. */
  invalid: number;
}

const dist = fileURLToPath(new URL('..', import.meta.url));

function worker(args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dist, 'postgres-contention-worker.js'), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(output.split('\n').filter((line) => line !== ''))
        : reject(new Error(`worker exited with ${code}`)),
    );
  });
}

/** 4 processes × 1,000 prompts on 100 sessions, then every history checked prompt by prompt. */
export async function storeContention(
  url: string,
  processes = 4,
  promptsPerProcess = 1000,
  sessions = 100,
): Promise<ContentionCell> {
  const schema = `bench_contention_${process.pid}`;
  await migrate({ connectionString: url, schema });
  const store = new PostgresSessionStore({ connectionString: url, schema });
  try {
    for (let index = 0; index < sessions; index++) {
      await store.save(newSessionState({ id: `s${index}` }), { expectedVersion: 0 });
    }
    const start = performance.now();
    const outputs = await Promise.all(
      Array.from({ length: processes }, (_, index) =>
        worker([url, schema, `w${index}`, String(sessions), String(promptsPerProcess), String(index + 1)]),
      ),
    );
    const wallMs = performance.now() - start;
    const attempts = outputs
      .flat()
      .map((line) => JSON.parse(line) as { session: string; tag: string; outcome: string });
    const cell: ContentionCell = {
      processes,
      sessions,
      promptsPerProcess,
      wallMs,
      completed: 0,
      refused: {},
      lost: 0,
      duplicated: 0,
      interleaved: 0,
      invalid: 0,
    };
    const outcomeOf = new Map(attempts.map((attempt) => [attempt.tag, attempt]));
    for (const attempt of attempts) {
      if (attempt.outcome === 'completed') cell.completed++;
      else cell.refused[attempt.outcome] = (cell.refused[attempt.outcome] ?? 0) + 1;
    }
    for (let index = 0; index < sessions; index++) {
      const id = `s${index}`;
      const loaded = await store.load(id);
      const records = await store.read(id);
      const messages: AgentMessage[] = [...loaded.messages];
      for (const record of records) {
        if (record.seq > loaded.lastSeq && record.event.type === 'message')
          messages.push(record.event.message);
      }
      if (
        historyProblems(messages).length > 0 ||
        records.some((record, position) => record.seq !== position + 1)
      )
        cell.invalid++;
      const found = new Map<string, number>();
      for (let at = 0; at < messages.length; at++) {
        const message = messages[at];
        if (message?.role !== 'user' || typeof message.content !== 'string') continue;
        const tag = message.content;
        found.set(tag, (found.get(tag) ?? 0) + 1);
        const answer = messages[at + 3];
        const together =
          messages[at + 1]?.role === 'assistant' &&
          messages[at + 2]?.role === 'toolResult' &&
          answer?.role === 'assistant' &&
          JSON.stringify(answer.content).includes(`done ${tag}`);
        if (!together) cell.interleaved++;
      }
      for (const [tag, count] of found) {
        const attempt = outcomeOf.get(tag);
        if (count > 1 || attempt?.outcome !== 'completed' || attempt.session !== id) cell.duplicated++;
      }
      for (const attempt of attempts) {
        if (attempt.session === id && attempt.outcome === 'completed' && !found.has(attempt.tag)) cell.lost++;
      }
    }
    return cell;
  } finally {
    await store.close();
  }
}
