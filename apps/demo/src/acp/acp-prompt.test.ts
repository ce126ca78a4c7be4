import { expect, test, vi } from 'vitest';
import { descendantsOf, isGone } from './test-support/spawn-acp.js';
import { promptText, useAcpTestFolder } from './test-support/acp-test-folder.js';

const folder = useAcpTestFolder('agent-core-acp-');

test('initialize declares only what is served: load, lists, resume, close, delete, images and embedded context', async () => {
  const server = await folder.start();
  const response = await server.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
  expect(response.protocolVersion).toBe(1);
  expect(response.agentCapabilities).toEqual({
    loadSession: true,
    promptCapabilities: { image: true, audio: false, embeddedContext: true },
    mcpCapabilities: { http: false, sse: false },
    sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
  });
  expect(response.authMethods).toEqual([]);
  expect(response.agentInfo?.name).toBe('agent-core');
  // A client that asks for a newer version gets the one the server speaks.
  expect((await server.agent.request('initialize', { protocolVersion: 7 })).protocolVersion).toBe(1);
});

test('a prompt with tool calls streams them in order with their statuses, then answers end_turn and sends nothing after', async () => {
  const server = await folder.start();
  const sessionId = await folder.newSession(server);
  const response = await promptText(server, sessionId, 'What is 15 * 3 and 10 + 5?');
  expect(response.stopReason).toBe('end_turn');
  const count = server.notifications.length;
  const updates = server.updates(sessionId);
  const calls = updates.filter((update) => update.sessionUpdate === 'tool_call');
  expect(calls.map((call) => call.sessionUpdate === 'tool_call' && call.title)).toEqual([
    'calculator: 15 * 3',
    'calculator: 10 + 5',
  ]);
  const statuses = updates.flatMap((update) =>
    update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update'
      ? [`${update.toolCallId.slice(-4)} ${update.status}`]
      : [],
  );
  const [first, second] = calls.map((call) =>
    call.sessionUpdate === 'tool_call' ? call.toolCallId.slice(-4) : '',
  );
  expect(statuses).toEqual([
    `${first} pending`,
    `${first} in_progress`,
    `${first} completed`,
    `${second} pending`,
    `${second} in_progress`,
    `${second} completed`,
  ]);
  const text = updates
    .flatMap((update) =>
      update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
        ? [update.content.text]
        : [],
    )
    .join('');
  expect(text).toBe('15 * 3 = 45 and 10 + 5 = 15.');
  // The last update before the answer is the last chunk; nothing comes after it.
  expect(updates.at(-1)?.sessionUpdate).toBe('agent_message_chunk');
  await server.agent.request('session/list', {});
  expect(server.notifications.length).toBe(count);
});

test('a cancel during a running command answers cancelled exactly once, kills the command, and the next prompt works', async () => {
  const server = await folder.start({
    permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }),
  });
  const sessionId = await folder.newSession(server);
  const answers: string[] = [];
  const prompt = server.agent
    .request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'run shell {"command":"sleep 30"}' }],
    })
    .then((response) => {
      answers.push(response.stopReason);
      return response;
    });
  await server.waitForUpdate(
    sessionId,
    (update) => update.sessionUpdate === 'tool_call_update' && update.status === 'in_progress',
  );
  // The call is announced as running just before its process starts.
  const sleeping = await vi.waitFor(() => {
    const found = descendantsOf(server.child.pid as number);
    expect(found.length).toBeGreaterThan(0);
    return found;
  });
  await server.agent.notify('session/cancel', { sessionId });
  expect((await prompt).stopReason).toBe('cancelled');
  const atAnswer = server.notifications.length;
  expect(server.updates(sessionId).at(-1)).toMatchObject({
    sessionUpdate: 'tool_call_update',
    status: 'failed',
  });
  // The next prompt works, and the cancelled one never answers again.
  const next = await promptText(server, sessionId, 'What is 2 + 2?');
  expect(next.stopReason).toBe('end_turn');
  expect(answers).toEqual(['cancelled']);
  expect(server.notifications.length).toBeGreaterThan(atAnswer);
  for (const pid of sleeping) expect(isGone(pid)).toBe(true);
});

test('two sessions prompt at once, each with its own agent and history', async () => {
  const server = await folder.start();
  const [one, two] = await Promise.all([
    server.agent.request('session/new', { cwd: folder.directory, mcpServers: [] }),
    server.agent.request('session/new', { cwd: folder.directory, mcpServers: [] }),
  ]);
  const [first, second] = await Promise.all([
    promptText(server, one.sessionId, 'What is 6 * 7?'),
    promptText(server, two.sessionId, 'What is 1 + 2?'),
  ]);
  expect([first.stopReason, second.stopReason]).toEqual(['end_turn', 'end_turn']);
  const textOf = (sessionId: string) =>
    server
      .updates(sessionId)
      .flatMap((update) =>
        update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
          ? [update.content.text]
          : [],
      )
      .join('');
  expect(textOf(one.sessionId)).toBe('6 * 7 = 42.');
  expect(textOf(two.sessionId)).toBe('1 + 2 = 3.');
});

test('a prompt while another runs on the session is refused clearly, and the session goes on', async () => {
  let answer: (value: { outcome: { outcome: 'selected'; optionId: string } }) => void = () => {};
  const server = await folder.start({ permission: () => new Promise((resolve) => (answer = resolve)) });
  const sessionId = await folder.newSession(server);
  // The first prompt waits on a permission request while the second one comes in.
  const first = promptText(server, sessionId, 'run shell {"command":"echo hi"}');
  await vi.waitFor(() => expect(server.permissionRequests).toHaveLength(1));
  await expect(
    server.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'What is 1 + 1?' }] }),
  ).rejects.toMatchObject({ code: -32600, message: expect.stringContaining('already answering a prompt') });
  answer({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
  expect((await first).stopReason).toBe('end_turn');
  const again = await promptText(server, sessionId, 'What is 1 + 1?');
  expect(again.stopReason).toBe('end_turn');
});
