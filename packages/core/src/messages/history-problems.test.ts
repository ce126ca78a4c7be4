import { describe, expect, it } from 'vitest';
import { type AgentMessage, historyProblems } from '../index.js';

const call = (...ids: string[]): AgentMessage => ({
  role: 'assistant',
  content: ids.map((id) => ({ type: 'toolCall' as const, id, name: 't', input: {} })),
  stopReason: 'tool_use',
});
const result = (id: string): AgentMessage => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 't',
  content: '',
  isError: false,
});
const user: AgentMessage = { role: 'user', content: 'hi' };

describe('historyProblems', () => {
  it('accepts a history where each call is answered right after it', () => {
    expect(historyProblems([user, call('a'), result('a'), user])).toEqual([]);
  });

  it.each([
    ['a missing result', [user, call('a'), user], 'message 1: tool calls [a] are answered by []'],
    [
      'a result in the wrong place',
      [user, result('a')],
      "message 1: the result for 'a' does not follow the assistant message that called it",
    ],
    [
      'a reused id',
      [call('a'), result('a'), call('a'), result('a')],
      "message 2: tool call id 'a' is used twice",
    ],
    [
      'results out of order',
      [call('a', 'b'), result('b'), result('a')],
      'message 0: tool calls [a, b] are answered by [b, a]',
    ],
  ])('names %s', (_, messages, problem) => {
    expect(historyProblems(messages as AgentMessage[])).toEqual([problem]);
  });
});
