import type { ToolOutput } from '../tool/tool.js';

/** What `AgentOptions.toolResultMaxChars` is when not set. */
export const defaultToolResultMaxChars = 100_000;

/**
 * Cuts a tool's output to `maxChars` characters of text (its text blocks
 * together; images are kept), ending with a note that says how much was left
 * out, so a tool that returns megabytes never floods the model's context.
 * Output within the limit is returned as it is.
 */
export function capToolOutput(output: ToolOutput, maxChars = defaultToolResultMaxChars): ToolOutput {
  if (typeof output === 'string') {
    if (output.length <= maxChars) return output;
    return output.slice(0, maxChars) + cutNote(output.length, maxChars);
  }
  let total = 0;
  for (const block of output) if (block.type === 'text') total += block.text.length;
  if (total <= maxChars) return output;
  let left = maxChars;
  const capped: ToolOutput = [];
  for (const block of output) {
    if (block.type !== 'text') capped.push(block);
    else if (left > 0) {
      capped.push(block.text.length <= left ? block : { type: 'text', text: block.text.slice(0, left) });
      left -= Math.min(left, block.text.length);
    }
  }
  capped.push({ type: 'text', text: cutNote(total, maxChars) });
  return capped;
}

function cutNote(total: number, kept: number): string {
  return `\n\n[Output cut: the tool returned ${total.toLocaleString('en-US')} characters; only the first ${kept.toLocaleString('en-US')} are shown. Ask for less, for example a narrower range or a filter.]`;
}
