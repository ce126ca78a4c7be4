import type { AgentMessage, Usage } from '@agent-core/core';
import type { ViewBlock, ViewMessage, ViewUsage } from '../../shared/studio-data.js';
import type { Redactor } from './redactor.js';
import { utf8Length } from './redactor.js';

/** How much of a text block, a thought, a tool's input or output the conversation shows before "show all". */
export const blockLimit = 16_000;

type LooseMessage = {
  role?: unknown;
  content?: unknown;
  toolCallId?: unknown;
  toolName?: unknown;
  isError?: unknown;
  stopReason?: unknown;
  model?: unknown;
  usage?: unknown;
  errorMessage?: unknown;
};

/**
 * A history message as the page shows it: each text cut at `limit` with its
 * size, secrets removed, images as their type and size only. Reads the
 * message loosely: an app-defined kind or a damaged one shows what it holds.
 */
export function viewMessage(
  message: AgentMessage,
  index: number,
  redactor: Redactor,
  limit = blockLimit,
): ViewMessage {
  const loose = message as LooseMessage;
  const role = typeof loose.role === 'string' ? loose.role : 'unknown';
  const view: ViewMessage = { index, role, blocks: viewBlocks(loose.content, redactor, limit) };
  if (typeof loose.toolCallId === 'string') view.toolCallId = loose.toolCallId;
  if (typeof loose.toolName === 'string') view.toolName = loose.toolName;
  if (typeof loose.isError === 'boolean') view.isError = loose.isError;
  if (typeof loose.stopReason === 'string') view.stopReason = loose.stopReason;
  if (typeof loose.model === 'string') view.model = loose.model;
  if (typeof loose.errorMessage === 'string') view.errorMessage = redactor.text(loose.errorMessage);
  const usage = viewUsage(loose.usage);
  if (usage !== undefined) view.usage = usage;
  if (role === 'compaction') {
    const record = message as { droppedMessages?: unknown; tokensBefore?: unknown; tokensAfter?: unknown };
    view.blocks.unshift({
      type: 'text',
      text: {
        text: `Compacted: ${String(record.droppedMessages)} messages are no longer sent (${String(record.tokensBefore)} → ${String(record.tokensAfter)} tokens).`,
        size: 0,
        cut: false,
      },
    });
  }
  return view;
}

function viewBlocks(content: unknown, redactor: Redactor, limit: number): ViewBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: redactor.cut(content, limit) }];
  if (!Array.isArray(content))
    return content === undefined
      ? []
      : [{ type: 'text', text: redactor.cut(JSON.stringify(content) ?? '', limit) }];
  const blocks: ViewBlock[] = [];
  for (const block of content as { type?: unknown }[]) {
    const loose = block as Record<string, unknown>;
    switch (loose.type) {
      case 'text':
        blocks.push({ type: 'text', text: redactor.cut(String(loose.text ?? ''), limit) });
        break;
      case 'thinking':
        blocks.push({
          type: 'thinking',
          text: redactor.cut(String(loose.thinking ?? ''), limit),
          redacted: loose.redacted === true,
        });
        break;
      case 'toolCall':
        blocks.push({
          type: 'toolCall',
          id: String(loose.id ?? ''),
          name: String(loose.name ?? ''),
          input: redactor.cut(JSON.stringify(loose.input ?? {}, null, 2) ?? '', limit),
        });
        break;
      case 'image':
        blocks.push({
          type: 'image',
          mimeType: String(loose.mimeType ?? ''),
          size: Math.floor((typeof loose.data === 'string' ? utf8Length(loose.data) : 0) * 0.75),
        });
        break;
      default:
        blocks.push({ type: 'text', text: redactor.cut(JSON.stringify(block) ?? '', limit) });
    }
  }
  return blocks;
}

/** Usage with numbers only; undefined when the value is not usage. */
export function viewUsage(value: unknown): ViewUsage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const usage = value as Partial<Usage>;
  const number = (field: unknown) => (typeof field === 'number' && Number.isFinite(field) ? field : 0);
  const view: ViewUsage = {
    input: number(usage.input),
    output: number(usage.output),
    cacheRead: number(usage.cacheRead),
    cacheWrite: number(usage.cacheWrite),
  };
  if (typeof usage.cost === 'number' && Number.isFinite(usage.cost)) view.cost = usage.cost;
  return view;
}
