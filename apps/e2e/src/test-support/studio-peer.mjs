// Another process over the studio's store: `seed <store> <notes> <id>...` stores a notes session per id,
// each paused on an edit waiting for approval; `decide <store> <notes> <id>` approves its call as
// `agent-core approve` does and prints what became of it; `run <store> <notes> <id> <steps>` prompts a
// session whose run looks at the notes `steps` times, slowly, while a studio watches; `big <store> <notes>
// <id> <steps>` stores a session whose one run logged `steps` tool calls (four records each), one of
// them with a 20 MB output.
import { AgentError, newSessionState, SessionManager } from '@agent-core/core';
import { notesAgent, openStore } from './studio-agent.mjs';

const [command, where, notesFile, ...rest] = process.argv.slice(2);
const store = openStore(where);
try {
  if (command === 'seed') {
    const manager = new SessionManager({ store, agentOptions: () => notesAgent(notesFile) });
    for (const id of rest) {
      const session = await manager.create({ id });
      await session.prompt(`Add the line ${id}`).result();
    }
  } else if (command === 'decide') {
    const [id, delayMs] = rest;
    const manager = new SessionManager({ store, agentOptions: () => notesAgent(notesFile) });
    const session = await manager.get(id);
    const pending = session.agent.pendingApprovals[0];
    // Both deciders are ready; the test releases them together.
    process.stdout.write('ready\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    await new Promise((resolve) => setTimeout(resolve, Number(delayMs ?? 0)));
    let outcome;
    try {
      const run = session.resume({
        decisions: [{ toolCallId: 'call-edit', inputHash: pending?.inputHash ?? '', decision: 'allow' }],
      });
      const result = await run.result();
      outcome = result.error === undefined ? 'ran' : result.error.code;
    } catch (error) {
      outcome = AgentError.isInstance(error) ? error.code : String(error);
    }
    process.stdout.write(`${JSON.stringify({ outcome })}\n`);
  } else if (command === 'run') {
    const [id, steps] = rest;
    const manager = new SessionManager({ store, agentOptions: () => notesAgent(notesFile, 250) });
    const session = await manager.create({ id });
    process.stdout.write('created\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    const result = await session.prompt(`slow ${steps}`).result();
    process.stdout.write(`${JSON.stringify({ outcome: result.terminateReason })}\n`);
  } else if (command === 'big') {
    const [id, steps] = rest;
    await store.save(newSessionState({ id }), { expectedVersion: 0 });
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    const at = (milliseconds) => new Date(start + milliseconds).toISOString();
    const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cost: 0.0001 };
    const entries = [
      { type: 'run_started', runId: 'big-run', at: at(0) },
      { type: 'message', message: { role: 'user', content: `slow ${steps}` } },
    ];
    for (let step = 0; step < Number(steps); step++) {
      const call = { type: 'toolCall', id: `look-${step}`, name: 'look', input: { step } };
      const output = step === Number(steps) - 1 ? 'x'.repeat(20_000_000) : `step ${step}`;
      entries.push(
        {
          type: 'message',
          message: { role: 'assistant', content: [call], stopReason: 'tool_use', usage, model: 'mock-model' },
        },
        {
          type: 'tool_started',
          toolCallId: call.id,
          toolName: 'look',
          input: call.input,
          at: at(step * 10 + 6),
        },
        {
          type: 'message',
          message: {
            role: 'toolResult',
            toolCallId: call.id,
            toolName: 'look',
            content: output,
            isError: false,
          },
        },
        { type: 'tool_finished', toolCallId: call.id, toolName: 'look', isError: false, durationMs: 3 },
      );
    }
    entries.push(
      {
        type: 'message',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: 'Looked.' }],
          stopReason: 'end_turn',
          usage,
        },
      },
      { type: 'run_ended', runId: 'big-run', reason: 'completed', usage, at: at(Number(steps) * 10 + 20) },
    );
    for (let index = 0; index < entries.length; index += 500)
      await store.append(id, entries.slice(index, index + 500), { operationId: `big-${index}` });
  } else throw new Error(`unknown command ${command}`);
} finally {
  await store.close?.();
}
