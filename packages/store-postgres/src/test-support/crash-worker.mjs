// The process killed in the crash test: `crash-worker.mjs <url> <schema> <folder>`. It runs session
// 'killme', whose first tool call finishes and whose second hangs; before hanging it prints the session's
// lease token, then 'slow call started'. Each tool run appends a line to <folder>/ran.txt.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionManager } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import pg from 'pg';
import { PostgresSessionStore } from '../../dist/index.js';

const [url, schema, folder] = process.argv.slice(2);

// A stateless model: one call per turn, w1 then w2, then an answer.
const provider = mock({
  chunkSize: 0,
  turns: (request) => {
    const results = request.messages.filter((message) => message.role === 'toolResult').length;
    if (results >= 2) return { text: `answered after ${results} results` };
    return { toolCalls: [{ name: 'work', id: `w${results + 1}`, input: { step: results + 1 } }] };
  },
});

const work = {
  name: 'work',
  description: 'does one step of work',
  parameters: { type: 'object', properties: { step: { type: 'number' } }, required: ['step'] },
  async execute({ step }) {
    appendFileSync(join(folder, 'ran.txt'), `step ${step}\n`);
    if (step === 1) return 'one done';
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const { rows } = await admin.query(
      `SELECT lease_token::text AS token FROM "${schema}".agent_core_sessions WHERE id = 'killme'`,
    );
    await admin.end();
    process.stdout.write(`${rows[0].token}\nslow call started\n`);
    return new Promise(() => {});
  },
};

const manager = new SessionManager({
  store: new PostgresSessionStore({ connectionString: url, schema, leaseDurationMs: 1000 }),
  agentOptions: () => ({ provider, model: 'mock', tools: [work], orchestrator: stepOrchestrator }),
});
const session = await manager.create({ id: 'killme' });
session.prompt('do the work');
