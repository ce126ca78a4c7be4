import type { AssistantMessage } from '@agent-core/core';
import type { CassetteEvent } from './cassette-data.js';
import { requestNoteField } from './note-requests.js';

/**
 * The events a provider would have streamed for a stored assistant message:
 * its thinking and text as one delta each, each tool call as start, its
 * arguments as one delta of JSON, and end, then its usage and `done` with the
 * message as stored (without the `RequestNote` of `noteRequests`).
 */
export function replyOfMessage(message: AssistantMessage): CassetteEvent[] {
  const events: CassetteEvent[] = [];
  for (const block of message.content) {
    if (block.type === 'thinking' && block.thinking !== '')
      events.push({ type: 'thinking_delta', delta: block.thinking });
    else if (block.type === 'text' && block.text !== '')
      events.push({ type: 'text_delta', delta: block.text });
    else if (block.type === 'toolCall') {
      events.push({ type: 'toolcall_start', id: block.id, name: block.name });
      events.push({ type: 'toolcall_delta', id: block.id, delta: JSON.stringify(block.input) });
      events.push({ type: 'toolcall_end', toolCall: block });
    }
  }
  if (message.usage !== undefined) events.push({ type: 'usage', usage: message.usage });
  // The note of the request it answered is about the recording, not part of the reply.
  const { [requestNoteField]: _note, ...reply } = message as AssistantMessage & Record<string, unknown>;
  events.push({ type: 'done', message: reply as AssistantMessage });
  return events;
}
