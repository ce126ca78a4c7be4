import picocolors from 'picocolors';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';
import { MarkdownStream } from './markdown-stream.js';

const plain = picocolors.createColors(false);
const colours = picocolors.createColors(true);

describe('markdown for a terminal', () => {
  it('renders headings, emphasis, lists, code blocks and tables without the markup', () => {
    const text = renderMarkdown(
      '# Title\n\nSome **bold** and `code` & <more>.\n\n- one\n- two\n\n1. first\n2. second\n\n```ts\nconst a = 1;\n```\n\n| a | b |\n| - | - |\n| 1 | 22 |\n',
      plain,
    );
    expect(text).toBe(
      'Title\n\nSome bold and code & <more>.\n\n• one\n• two\n\n1. first\n2. second\n\n╭ ts\n│ const a = 1;\n\na  b \n─  ──\n1  22\n\n',
    );
    expect(renderMarkdown('# Title', colours)).toContain('\x1b[1m');
  });

  it('a stream renders each line once it is complete, code as it arrives, and the rest on flush', () => {
    const written: string[] = [];
    const stream = new MarkdownStream((text) => written.push(text), plain);
    for (const piece of [
      '# He',
      'ading\nSome **bo',
      'ld** text\n```\nco',
      'de\n```\n| x |\n| - |\n| 1 |\nend',
    ])
      stream.push(piece);
    // The table waits for a line that is not a row; 'end' is not a whole line yet.
    expect(written.join('')).toBe('Heading\nSome bold text\n│ code\n\n');
    stream.flush();
    expect(written.join('')).toBe('Heading\nSome bold text\n│ code\n\nx\n─\n1\nend\n');
  });
});
