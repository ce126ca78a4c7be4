import { isCompactionMessage } from '../messages/compaction-message.js';
import type { AgentMessage, ToolResultMessage } from '../messages/messages.js';

/** The names of the two skill tools. */
export const skillToolNames = { load: 'load_skill', readFile: 'read_skill_file' } as const;

/** Escapes a value for the attributes of a result's first line, so it cannot close the tag early. */
function attribute(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/** The first line of a `load_skill` result that carries a body: how the tools find it in the history again. */
export function loadedSkillHeader(name: string, location: string | undefined): string {
  const where = location === undefined ? '' : ` location="${attribute(location)}"`;
  return `<skill name="${attribute(name)}"${where}>`;
}

/** The first line of a `read_skill_file` result that carries a file. */
export function skillFileHeader(skill: string, path: string): string {
  return `<skill_file skill="${attribute(skill)}" path="${attribute(path)}">`;
}

function resultText(message: ToolResultMessage): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  const first = content[0];
  return first?.type === 'text' ? first.text : '';
}

/**
 * True when a successful result of `toolName` whose first line is `header`
 * is still sent to the model: in the history, and not dropped by the latest
 * compaction (`CompactionMessage.firstKept` and `keptBefore`).
 */
export function isStillSent(messages: readonly AgentMessage[], toolName: string, header: string): boolean {
  let compaction: { firstKept: number; keptBefore: readonly number[] } | undefined;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (isCompactionMessage(message)) {
      compaction = message;
      break;
    }
  }
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as AgentMessage & { role: string };
    if (compaction !== undefined && index < compaction.firstKept && !compaction.keptBefore.includes(index))
      continue;
    if (message.role !== 'toolResult') continue;
    const result = message as ToolResultMessage;
    if (result.toolName !== toolName || result.isError) continue;
    const text = resultText(result);
    if (text.startsWith(header) && (text.length === header.length || text[header.length] === '\n'))
      return true;
  }
  return false;
}

const loadedName = /^<skill name="([^"]*)"/;

/** The names of the skills a successful `load_skill` result in the history carried, compacted or not. */
export function loadedSkillNames(messages: readonly AgentMessage[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    const result = message as ToolResultMessage;
    if (result.role !== 'toolResult' || result.toolName !== skillToolNames.load || result.isError) continue;
    const match = loadedName.exec(resultText(result));
    if (match?.[1] !== undefined) names.add(match[1]);
  }
  return names;
}
