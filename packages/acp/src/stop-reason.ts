import type { StopReason } from '@agentclientprotocol/sdk';
import type { AgentResult, AssistantMessage } from '@agent-core/core';

/**
 * The ACP stop reason of a finished run, or undefined when the run failed
 * (`error`, `timeout`): ACP has no stop reason for a failure, so the prompt
 * is answered with a JSON-RPC error instead. A model that refused answers `refusal`.
 */
export function stopReasonOf(result: AgentResult): StopReason | undefined {
  switch (result.terminateReason) {
    case 'completed': {
      // Backwards from the end: the last answer is near it, whatever the history's length.
      for (let index = result.messages.length - 1; index >= 0; index--) {
        const message = result.messages[index] as AssistantMessage;
        if (message.role === 'assistant') return message.stopReason === 'refusal' ? 'refusal' : 'end_turn';
      }
      return 'end_turn';
    }
    case 'aborted':
      return 'cancelled';
    case 'max_turns':
      return 'max_turn_requests';
    case 'max_tokens':
    case 'output_limit':
      return 'max_tokens';
    // A pause the editor could not answer: the turn ends, the approval stays stored.
    case 'await_user':
      return 'end_turn';
    default:
      return undefined;
  }
}
