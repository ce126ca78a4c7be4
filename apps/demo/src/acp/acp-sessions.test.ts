import { join } from 'node:path';
import { expect, test } from 'vitest';
import { type AcpProcess, digest, type EditorOptions } from './test-support/spawn-acp.js';
import { promptText, useAcpTestFolder } from './test-support/acp-test-folder.js';

const folder = useAcpTestFolder('agent-core-acp-sessions-');

async function restart(server: AcpProcess, options: Partial<EditorOptions> = {}) {
  await folder.quit(server);
  return folder.start(options);
}

test('list, load, resume, close and delete work on stored sessions, across processes', async () => {
  let server = await folder.start();
  const sessionId = await folder.newSession(server);
  await promptText(server, sessionId, 'What is 6 * 7?');
  const other = await server.agent.request('session/new', {
    cwd: join(folder.directory, 'data'),
    mcpServers: [],
  });

  const listed = await server.agent.request('session/list', {});
  expect(listed.sessions.map((session) => session.sessionId).sort()).toEqual(
    [sessionId, other.sessionId].sort(),
  );
  const mine = listed.sessions.find((session) => session.sessionId === sessionId);
  expect(mine).toMatchObject({ cwd: folder.directory, title: 'What is 6 * 7?' });
  expect(Date.parse(mine?.updatedAt ?? '')).not.toBeNaN();
  // A cwd filter keeps the sessions of that directory only.
  const filtered = await server.agent.request('session/list', { cwd: folder.directory });
  expect(filtered.sessions.map((session) => session.sessionId)).toEqual([sessionId]);

  server = await restart(server);
  await server.agent.request('session/load', { sessionId, cwd: folder.directory, mcpServers: [] });
  const replayed = server.updates(sessionId);
  expect(replayed[0]).toEqual({
    sessionUpdate: 'user_message_chunk',
    content: { type: 'text', text: 'What is 6 * 7?' },
  });
  expect(digest(replayed).map((update) => (update as { kind: string }).kind)).toEqual([
    'user_message_chunk',
    'tool_call',
    'tool_call_update',
    'tool_call_update',
    'agent_message_chunk',
  ]);
  // The loaded session remembers its history: the model is sent all of it.
  await promptText(server, sessionId, 'how many messages?');
  const recall = server.updates(sessionId).filter((update) => update.sessionUpdate === 'agent_message_chunk');
  expect(
    recall.map((update) => (update.content.type === 'text' ? update.content.text : '')).join(''),
  ).toContain('before this you said: "What is 6 * 7?"');

  server = await restart(server);
  // Resume reattaches without replaying anything.
  await server.agent.request('session/resume', { sessionId, cwd: folder.directory, mcpServers: [] });
  expect(server.updates(sessionId)).toEqual([]);
  const after = await promptText(server, sessionId, 'What is 1 + 1?');
  expect(after.stopReason).toBe('end_turn');

  await server.agent.request('session/close', { sessionId });
  await expect(
    server.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hi' }] }),
  ).rejects.toMatchObject({
    code: -32002,
    message: expect.stringContaining(`Unknown session '${sessionId}'`),
  });
  await server.agent.request('session/delete', { sessionId });
  await expect(
    server.agent.request('session/load', { sessionId, cwd: folder.directory, mcpServers: [] }),
  ).rejects.toMatchObject({ code: -32002 });
  const left = await server.agent.request('session/list', {});
  expect(left.sessions.map((session) => session.sessionId)).toEqual([other.sessionId]);
});

test('config options change mid-session: orchestrator, policy and mode, kept across a load', async () => {
  let server = await folder.start();
  const created = await server.agent.request('session/new', { cwd: folder.directory, mcpServers: [] });
  const { sessionId } = created;
  expect(created.configOptions?.map((option) => [option.id, option.currentValue])).toEqual([
    ['model', 'mock/offline-mock'],
    ['orchestrator', 'agentic'],
    ['policy', 'standard'],
  ]);
  expect(created.modes?.currentModeId).toBe('standard');
  await promptText(server, sessionId, 'What is 2 + 3?');

  const changed = await server.agent.request('session/set_config_option', {
    sessionId,
    configId: 'orchestrator',
    value: 'plan-execute',
  });
  expect(changed.configOptions.find((option) => option.id === 'orchestrator')?.currentValue).toBe(
    'plan-execute',
  );
  await server.agent.request('session/set_config_option', {
    sessionId,
    configId: 'policy',
    value: 'permissive',
  });
  expect(server.updates(sessionId).at(-1)).toEqual({
    sessionUpdate: 'current_mode_update',
    currentModeId: 'permissive',
  });
  await expect(
    server.agent.request('session/set_config_option', { sessionId, configId: 'policy', value: 'reckless' }),
  ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('strict, standard, permissive') });

  const before = server.notifications.length;
  const response = await promptText(server, sessionId, 'What is 4 * 5 and 9 - 3?');
  expect(response.stopReason).toBe('end_turn');
  const plans = server.notifications
    .slice(before)
    .flatMap((notification) =>
      notification.update.sessionUpdate === 'plan' ? [notification.update.entries] : [],
    );
  expect(plans[0]?.map((entry) => [entry.content, entry.status])).toEqual([
    ['Compute 4 * 5', 'pending'],
    ['Compute 9 - 3', 'pending'],
  ]);
  expect(plans.at(-1)?.map((entry) => entry.status)).toEqual(['completed', 'completed']);

  await server.agent.request('session/set_mode', { sessionId, modeId: 'strict' });
  server = await restart(server);
  const loaded = await server.agent.request('session/load', {
    sessionId,
    cwd: folder.directory,
    mcpServers: [],
  });
  expect(loaded.configOptions?.map((option) => [option.id, option.currentValue])).toEqual([
    ['model', 'mock/offline-mock'],
    ['orchestrator', 'plan-execute'],
    ['policy', 'strict'],
  ]);
  expect(loaded.modes?.currentModeId).toBe('strict');
});

test('golden: the replay of session/load equals the live stream of the same prompts (kinds, titles, statuses, plans)', async () => {
  let server = await folder.start({
    permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }),
  });
  const sessionId = await folder.newSession(server);
  await promptText(server, sessionId, 'What is 15 * 3 and 10 + 5?');
  await promptText(server, sessionId, 'call write_file {"path":"notes.txt","content":"hello"}');
  await server.agent.request('session/set_config_option', {
    sessionId,
    configId: 'orchestrator',
    value: 'plan-execute',
  });
  await promptText(server, sessionId, 'What is 4 * 5 and 9 - 3?');
  const live = server
    .updates(sessionId)
    .filter((update) => !['config_option_update', 'current_mode_update'].includes(update.sessionUpdate));

  server = await restart(server);
  await server.agent.request('session/load', { sessionId, cwd: folder.directory, mcpServers: [] });
  const replay = server.updates(sessionId);
  const prompts = replay.filter((update) => update.sessionUpdate === 'user_message_chunk');
  expect(prompts.map((update) => (update.content.type === 'text' ? update.content.text : ''))).toEqual([
    'What is 15 * 3 and 10 + 5?',
    'call write_file {"path":"notes.txt","content":"hello"}',
    'What is 4 * 5 and 9 - 3?',
  ]);
  const withoutPrompts = replay.filter((update) => update.sessionUpdate !== 'user_message_chunk');
  expect(digest(withoutPrompts)).toEqual(digest(live));
  expect(
    digest(live).filter((update) => (update as { kind: string }).kind === 'plan').length,
  ).toBeGreaterThan(2);
  // The edit shows as a diff of the file, live and replayed alike.
  const diff = (updates: typeof live) =>
    updates
      .flatMap((update) => (update.sessionUpdate === 'tool_call_update' ? (update.content ?? []) : []))
      .find((content) => content.type === 'diff');
  expect(diff(live)).toEqual({ type: 'diff', path: join(folder.directory, 'notes.txt'), newText: 'hello' });
  expect(diff(replay)).toEqual(diff(live));
});
