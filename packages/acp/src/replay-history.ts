import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentMessage, AnyTool, ToolCallBlock } from '@agent-core/core';
import type { AcpSessionRecord } from './session-record.js';
import { inputDiffOf } from './edit-diff.js';
import { contentOfToolResult, viewOfToolCall } from './tool-call-view.js';

/**
 * A stored history as the `session/update`s the live stream sent for it:
 * the user's prompts as user chunks, answers as message (or thought) chunks,
 * each tool call as `tool_call` then its statuses and result, and the plans
 * where they were shown. What the record says was hidden stays hidden. A call
 * that ran and failed shows `pending` then `failed` (the history does not say
 * whether it had started); a call still waiting for approval shows `pending`.
 * A write's or an edit's diff comes from its input: an overwrite shows its
 * new text only, as the file it replaced is not stored.
 */
export function replayHistory(
  history: readonly AgentMessage[],
  record: AcpSessionRecord,
  toolOf: (name: string) => AnyTool | undefined,
): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  const hidden = new Set(record.hidden ?? []);
  const thoughts = new Set(record.thoughts ?? []);
  const plans = record.plans ?? [];
  let nextPlan = 0;
  const waiting = new Map<string, ToolCallBlock>();
  const showPlans = (upTo: number) => {
    while (nextPlan < plans.length && (plans[nextPlan]?.at ?? 0) <= upTo) {
      updates.push({ sessionUpdate: 'plan', entries: plans[nextPlan]?.entries ?? [] });
      nextPlan++;
    }
  };
  const announce = (call: ToolCallBlock) => {
    const view = viewOfToolCall(call, toolOf(call.name), record.cwd);
    updates.push({
      sessionUpdate: 'tool_call',
      toolCallId: call.id,
      title: view.title,
      kind: view.kind,
      status: 'pending',
      locations: view.locations,
      rawInput: call.input,
    });
    // The live stream showed a write's or an edit's diff before the call ran.
    const diff = inputDiffOf(call, record.cwd);
    if (diff !== undefined)
      updates.push({
        sessionUpdate: 'tool_call_update',
        toolCallId: call.id,
        content: [{ type: 'diff', ...diff }],
      });
  };
  history.forEach((message, index) => {
    showPlans(index);
    if (hidden.has(index)) return;
    const role = (message as { role: string }).role;
    if (role === 'user') {
      const user = message as Extract<AgentMessage, { role: 'user' }>;
      for (const content of userContent(user.content))
        updates.push({ sessionUpdate: 'user_message_chunk', content });
      return;
    }
    if (role === 'assistant') {
      const assistant = message as Extract<AgentMessage, { role: 'assistant' }>;
      for (const block of assistant.content) {
        if (block.type === 'thinking' && block.thinking !== '')
          updates.push({
            sessionUpdate: 'agent_thought_chunk',
            content: { type: 'text', text: block.thinking },
          });
        else if (block.type === 'text' && block.text !== '')
          updates.push({
            sessionUpdate: thoughts.has(index) ? 'agent_thought_chunk' : 'agent_message_chunk',
            content: { type: 'text', text: block.text },
          });
        else if (block.type === 'toolCall') waiting.set(block.id, block);
      }
      return;
    }
    if (role === 'toolResult') {
      const result = message as Extract<AgentMessage, { role: 'toolResult' }>;
      const call = waiting.get(result.toolCallId) ?? {
        type: 'toolCall' as const,
        id: result.toolCallId,
        name: result.toolName,
        input: {},
      };
      waiting.delete(result.toolCallId);
      announce(call);
      if (!result.isError)
        updates.push({ sessionUpdate: 'tool_call_update', toolCallId: call.id, status: 'in_progress' });
      updates.push({
        sessionUpdate: 'tool_call_update',
        toolCallId: call.id,
        status: result.isError ? 'failed' : 'completed',
        content: contentOfToolResult(call, result.content, result.isError, record.cwd),
      });
    }
  });
  showPlans(Number.POSITIVE_INFINITY);
  // Calls with no result yet: waiting for approval, or left for a resume.
  for (const call of waiting.values()) announce(call);
  return updates;
}

function userContent(content: Extract<AgentMessage, { role: 'user' }>['content']): ContentBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content.map((block) =>
    block.type === 'text'
      ? { type: 'text', text: block.text }
      : { type: 'image', data: block.data, mimeType: block.mimeType },
  );
}
