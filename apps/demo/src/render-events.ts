import type { AgentEvent } from '@agent-core/core';

/** What the demo says when a run completed without any text to show. */
export const noTextMessage = 'The model returned no text.';

/** Where the renderer writes. */
export interface Output {
  write(text: string): void;
}

/**
 * Prints a run as a person wants to read it: the answer streamed as it
 * arrives, a status line per tool call, retries and errors. Returns the
 * listener to subscribe.
 */
export function renderEvents(out: Output): (event: AgentEvent) => void {
  let atLineStart = true;
  const line = (text: string) => {
    out.write(`${atLineStart ? '' : '\n'}${text}\n`);
    atLineStart = true;
  };
  return (event) => {
    switch (event.type) {
      case 'text_delta':
        out.write(event.delta);
        atLineStart = event.delta.endsWith('\n');
        break;
      case 'tool_call_start':
        line(`  ⚙ ${event.toolCall.name} ${JSON.stringify(event.toolCall.input)}`);
        break;
      case 'tool_call_end':
        line(`  ${event.isError ? '✗' : '✓'} ${event.toolCall.name} → ${preview(event.result)}`);
        break;
      case 'tool_skipped':
        line(`  ↷ ${event.toolCall.name} skipped: ${event.reason}`);
        break;
      case 'retry':
        line(`  … ${event.error.kind} from ${event.provider}; retry ${event.attempt} in ${event.delayMs} ms`);
        break;
      case 'error':
        line(`Error: ${event.error.message}`);
        break;
      case 'agent_end':
        if (!atLineStart) {
          out.write('\n');
          atLineStart = true;
        }
        if (event.result.terminateReason === 'completed' && event.result.text.trim() === '') {
          line(`[no text] ${noTextMessage}`);
        } else if (event.result.terminateReason !== 'completed' && event.result.terminateReason !== 'error') {
          line(
            `[${event.result.terminateReason}] ${event.result.terminateReason === 'max_turns' ? event.result.text : ''}`.trim(),
          );
        }
        break;
    }
  };
}

function preview(result: string | { type: string; text?: string }[]): string {
  const text =
    typeof result === 'string' ? result : result.map((block) => block.text ?? `[${block.type}]`).join(' ');
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}
