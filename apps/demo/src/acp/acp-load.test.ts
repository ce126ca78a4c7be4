import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { expect, test } from 'vitest';
import { promptText, useAcpTestFolder } from './test-support/acp-test-folder.js';

// One editor, one `agent-core acp`, 50 sessions prompting at once, each with its own arithmetic
// (a number no other session uses) that the offline model hands to the calculator: every update
// reaches the session it belongs to, and each answer is its own.

const folder = useAcpTestFolder('agent-core-acp-load-');

const sessions = 50;
const operandOf = (index: number) => 4_711_000 + index;

function textOf(updates: readonly SessionUpdate[]): string {
  return updates
    .flatMap((update) =>
      update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
        ? [update.content.text]
        : [],
    )
    .join('');
}

test(`${sessions} sessions prompting at once with tool calls: every update goes to its own session`, async () => {
  const acp = await folder.start();
  const ids = await Promise.all(
    Array.from({ length: sessions }, () =>
      acp.agent
        .request('session/new', { cwd: folder.directory, mcpServers: [] })
        .then((created) => created.sessionId),
    ),
  );
  expect(new Set(ids).size).toBe(sessions);
  const answers = await Promise.all(
    ids.map((sessionId, index) => promptText(acp, sessionId, `What is ${operandOf(index)} * 7?`)),
  );
  expect(answers.map((answer) => answer.stopReason)).toEqual(ids.map(() => 'end_turn'));

  const routed = new Set(acp.notifications.map((notification) => notification.sessionId));
  expect([...routed].every((sessionId) => ids.includes(sessionId))).toBe(true);
  ids.forEach((sessionId, index) => {
    const updates = acp.updates(sessionId);
    const calls = updates.filter((update) => update.sessionUpdate === 'tool_call');
    expect(calls.map((call) => call.sessionUpdate === 'tool_call' && call.title)).toEqual([
      `calculator: ${operandOf(index)} * 7`,
    ]);
    const completed = updates.filter(
      (update) => update.sessionUpdate === 'tool_call_update' && update.status === 'completed',
    );
    expect(completed).toHaveLength(1);
    expect(textOf(updates)).toContain(String(operandOf(index) * 7));
    // No operand or result of another session appears in this session's updates.
    const numbers = new Set(JSON.stringify(updates).match(/\b4711\d{3}\b|\b3297\d{4}\b/g));
    for (const number of numbers)
      expect(
        [String(operandOf(index)), String(operandOf(index) * 7)],
        `${sessionId} saw ${number}`,
      ).toContain(number);
  });
  expect(acp.stderr()).not.toMatch(/unhandled|Error:/i);
}, 120_000);
