import type { ImageBlock, TextBlock } from '@agent-core/core';

/** A session's title from its first prompt: the text on one line, cut at 80 characters; undefined without text. */
export function titleOf(content: readonly (TextBlock | ImageBlock)[]): string | undefined {
  const text = content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return undefined;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
