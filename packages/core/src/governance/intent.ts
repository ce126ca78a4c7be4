import type { AssistantMessage } from '../messages/messages.js';
import type { ToolRisk } from '../tool/tool.js';

/** One `<intent tool="name" risk="...">why</intent>` the model declared before its tool calls. */
export interface Intent {
  tool: string;
  /** The declared risk as written; checked against the four risk names where it is used. */
  risk: string | undefined;
  reason: string;
}

const intentPattern = /<intent\b([^>]*)>([\s\S]*?)<\/intent>/g;
const attributePattern = /([a-zA-Z_-]+)\s*=\s*"([^"]*)"/g;

/** The intents declared in the text blocks of an assistant message, in order. */
export function parseIntents(message: AssistantMessage): Intent[] {
  const intents: Intent[] = [];
  for (const block of message.content) {
    if (block.type !== 'text' || !block.text.includes('<intent')) continue;
    for (const match of block.text.matchAll(intentPattern)) {
      const attributes = new Map<string, string>();
      for (const attribute of (match[1] ?? '').matchAll(attributePattern)) {
        attributes.set((attribute[1] as string).toLowerCase(), attribute[2] as string);
      }
      const tool = attributes.get('tool');
      if (tool === undefined) continue;
      intents.push({ tool, risk: attributes.get('risk'), reason: (match[2] ?? '').trim() });
    }
  }
  return intents;
}

/** The error text for a call without a matching intent: it says exactly what to declare. */
export function missingIntentText(toolName: string, risk: ToolRisk): string {
  return `Tool call '${toolName}' was refused: no intent was declared for it. Before the call, in the same message, write <intent tool="${toolName}" risk="${risk}">why you need it</intent>, then call it again.`;
}
