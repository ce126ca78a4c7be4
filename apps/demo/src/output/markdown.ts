import { stripVTControlCharacters } from 'node:util';
import { lexer, type Token, type Tokens } from 'marked';
import type { Style } from './terminal-style.js';

/**
 * Renders markdown for a terminal: headings, lists, code blocks, quotes,
 * tables, emphasis and links, with colours from `style`. `marked` parses
 * (it is small and loads quickly); the styling is the CLI's own few lines.
 */
export function renderMarkdown(text: string, style: Style): string {
  return blocks(lexer(text), style, '').replace(/\n{3,}/g, '\n\n');
}

function blocks(tokens: readonly Token[], style: Style, indent: string): string {
  let out = '';
  for (const token of tokens) out += block(token, style, indent);
  return out;
}

function block(token: Token, style: Style, indent: string): string {
  switch (token.type) {
    case 'heading': {
      const heading = token as Tokens.Heading;
      const text = inline(heading.tokens, style);
      return `${indent}${heading.depth <= 2 ? style.bold(style.underline(text)) : style.bold(text)}\n\n`;
    }
    case 'paragraph':
      return `${indent}${inline((token as Tokens.Paragraph).tokens, style)}\n\n`;
    case 'text': {
      const text = token as Tokens.Text;
      return `${indent}${text.tokens === undefined ? text.text : inline(text.tokens, style)}\n`;
    }
    case 'code': {
      const code = token as Tokens.Code;
      const lines = code.text.split('\n').map((line) => `${indent}${style.dim('│')} ${style.cyan(line)}`);
      const label = code.lang ? `${indent}${style.dim(`╭ ${code.lang}`)}\n` : '';
      return `${label}${lines.join('\n')}\n\n`;
    }
    case 'blockquote':
      return blocks((token as Tokens.Blockquote).tokens, style, `${indent}${style.dim('│')} `);
    case 'list':
      return `${list(token as Tokens.List, style, indent)}\n`;
    case 'hr':
      return `${indent}${style.dim('─'.repeat(40))}\n\n`;
    case 'table':
      return table(token as Tokens.Table, style, indent);
    case 'space':
      return '';
    default:
      return 'text' in token && typeof token.text === 'string'
        ? `${indent}${token.text}\n`
        : (token.raw ?? '');
  }
}

function list(token: Tokens.List, style: Style, indent: string): string {
  const start = typeof token.start === 'number' ? token.start : 1;
  return token.items
    .map((item, index) => {
      const marker = token.ordered ? `${start + index}.` : '•';
      const check = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
      const body = blocks(item.tokens, style, `${indent}   `).trimStart().replace(/\n+$/, '');
      return `${indent}${style.dim(marker)} ${check}${body}\n`;
    })
    .join('');
}

function table(token: Tokens.Table, style: Style, indent: string): string {
  const rows = [token.header, ...token.rows].map((row) => row.map((cell) => inline(cell.tokens, style)));
  const plain = (text: string) => stripVTControlCharacters(text);
  const widths = token.header.map((_, column) =>
    Math.max(...rows.map((row) => plain(row[column] ?? '').length)),
  );
  const line = (row: string[]) =>
    `${indent}${row.map((cell, column) => cell + ' '.repeat((widths[column] ?? 0) - plain(cell).length)).join('  ')}`;
  const [header = [], ...body] = rows;
  return `${style.bold(line(header))}\n${indent}${style.dim(widths.map((width) => '─'.repeat(width)).join('  '))}\n${body.map(line).join('\n')}\n\n`;
}

function inline(tokens: readonly Token[] | undefined, style: Style): string {
  let out = '';
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
        out += style.bold(inline((token as Tokens.Strong).tokens, style));
        break;
      case 'em':
        out += style.italic(inline((token as Tokens.Em).tokens, style));
        break;
      case 'del':
        out += style.strikethrough(inline((token as Tokens.Del).tokens, style));
        break;
      case 'codespan':
        out += style.cyan((token as Tokens.Codespan).text);
        break;
      case 'link': {
        const link = token as Tokens.Link;
        const text = inline(link.tokens, style);
        out += text === link.href ? style.underline(text) : `${text} ${style.dim(`(${link.href})`)}`;
        break;
      }
      case 'br':
        out += '\n';
        break;
      case 'escape':
      case 'text': {
        const text = token as Tokens.Text;
        out += text.tokens === undefined ? decode(text.text) : inline(text.tokens, style);
        break;
      }
      default:
        out += token.raw;
    }
  }
  return out;
}

// marked escapes these in text tokens; a terminal shows the characters themselves.
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  );
}
