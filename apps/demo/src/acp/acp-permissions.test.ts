import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { expect, test, vi } from 'vitest';
import { promptText, useAcpTestFolder } from './test-support/acp-test-folder.js';

const folder = useAcpTestFolder('agent-core-acp-permission-');

const choose = (optionId: string) => (): RequestPermissionResponse => ({
  outcome: { outcome: 'selected', optionId },
});
const appendLine = (file: string) => `run shell {"command":"echo ran >> ${file}"}`;

async function linesOf(file: string): Promise<string[]> {
  return existsSync(file) ? (await readFile(file, 'utf8')).trim().split('\n') : [];
}

test('allow once runs the call and asks again next time; the request offers the four answers', async () => {
  const server = await folder.start({ permission: choose('allow_once') });
  const sessionId = await folder.newSession(server);
  const file = join(folder.directory, 'ran.txt');
  for (let round = 0; round < 2; round++) {
    const response = await promptText(server, sessionId, appendLine(file));
    expect(response.stopReason).toBe('end_turn');
  }
  expect(await linesOf(file)).toEqual(['ran', 'ran']);
  expect(server.permissionRequests).toHaveLength(2);
  const request = server.permissionRequests[0];
  expect(request?.options.map((option) => option.kind)).toEqual([
    'allow_once',
    'allow_always',
    'reject_once',
    'reject_always',
  ]);
  expect(request?.toolCall).toMatchObject({
    title: `shell: echo ran >> ${file}`,
    kind: 'execute',
    status: 'pending',
  });
  // The call was shown before it was asked about.
  const updates = server
    .updates(sessionId)
    .filter((update) => update.sessionUpdate !== 'available_commands_update');
  expect(updates[0]).toMatchObject({ sessionUpdate: 'tool_call', toolCallId: request?.toolCall.toolCallId });
});

test('allow always runs the call and never asks again for that tool in the session', async () => {
  const server = await folder.start({ permission: choose('allow_always') });
  const sessionId = await folder.newSession(server);
  const file = join(folder.directory, 'ran.txt');
  for (let round = 0; round < 3; round++) await promptText(server, sessionId, appendLine(file));
  expect(await linesOf(file)).toEqual(['ran', 'ran', 'ran']);
  expect(server.permissionRequests).toHaveLength(1);
});

test('reject does not run the call and shows it failed; reject always denies later calls without asking', async () => {
  const server = await folder.start({ permission: choose('reject_once') });
  const sessionId = await folder.newSession(server);
  const file = join(folder.directory, 'ran.txt');
  const response = await promptText(server, sessionId, appendLine(file));
  expect(response.stopReason).toBe('end_turn');
  expect(await linesOf(file)).toEqual([]);
  const failed = server
    .updates(sessionId)
    .find((update) => update.sessionUpdate === 'tool_call_update' && update.status === 'failed');
  expect(failed).toBeDefined();

  const strict = await folder.start({ permission: choose('reject_always') });
  const other = await strict.agent.request('session/new', { cwd: folder.directory, mcpServers: [] });
  for (let round = 0; round < 2; round++) await promptText(strict, other.sessionId, appendLine(file));
  expect(await linesOf(file)).toEqual([]);
  expect(strict.permissionRequests).toHaveLength(1);
  const statuses = strict
    .updates(other.sessionId)
    .flatMap((update) => (update.sessionUpdate === 'tool_call_update' ? [update.status] : []));
  expect(statuses).toEqual(['failed', 'failed']);
});

test('a cancel while the editor is asked answers cancelled and the tool never runs', async () => {
  const server = await folder.start({
    // An editor answers a cancelled prompt's pending request with `cancelled`.
    permission: (_request, signal) =>
      new Promise((resolve) =>
        signal.addEventListener('abort', () => resolve({ outcome: { outcome: 'cancelled' } }), {
          once: true,
        }),
      ),
  });
  const sessionId = await folder.newSession(server);
  const file = join(folder.directory, 'ran.txt');
  const prompt = promptText(server, sessionId, appendLine(file));
  await vi.waitFor(() => expect(server.permissionRequests).toHaveLength(1));
  await server.agent.notify('session/cancel', { sessionId });
  expect((await prompt).stopReason).toBe('cancelled');
  expect(await linesOf(file)).toEqual([]);
  // The session is not left waiting: the next prompt is answered normally.
  const next = await promptText(server, sessionId, 'What is 3 + 4?');
  expect(next.stopReason).toBe('end_turn');
  expect(server.permissionRequests).toHaveLength(1);
  expect(await linesOf(file)).toEqual([]);
});

test('a request pending when the editor quits is asked again after session/load in a new process, and the tool runs once', async () => {
  const first = await folder.start({ permission: () => new Promise<never>(() => {}) });
  const sessionId = await folder.newSession(first);
  const file = join(folder.directory, 'ran.txt');
  const prompt = first.agent
    .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: appendLine(file) }] })
    .catch((error: unknown) => error);
  await vi.waitFor(() => expect(first.permissionRequests).toHaveLength(1));
  expect(await folder.quit(first)).toBe(0);
  await prompt;
  expect(await linesOf(file)).toEqual([]);

  const second = await folder.start({ permission: choose('allow_once') });
  await second.agent.request('session/load', { sessionId, cwd: folder.directory, mcpServers: [] });
  await vi.waitFor(() => expect(second.permissionRequests).toHaveLength(1));
  expect(second.permissionRequests[0]?.toolCall.toolCallId).toBe(
    first.permissionRequests[0]?.toolCall.toolCallId,
  );
  // The resumed run finishes before a new prompt starts.
  const next = await promptText(second, sessionId, 'What is 2 + 2?');
  expect(next.stopReason).toBe('end_turn');
  expect(await linesOf(file)).toEqual(['ran']);
  expect(second.updates(sessionId)).toContainEqual(
    expect.objectContaining({ sessionUpdate: 'tool_call_update', status: 'completed' }),
  );
  expect(second.permissionRequests).toHaveLength(1);
});
