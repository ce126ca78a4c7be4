import { type Token, type Tokens, marked } from 'marked';
import type { ComponentChildren } from 'preact';

/**
 * Markdown as Preact elements, from marked's tokens: never as HTML, so a
 * model's or a tool's text cannot put markup or script into the page. Raw
 * HTML shows as text; links keep only http(s) and mailto addresses.
 */
export function Markdown({ text }: { text: string }) {
  return <div class="markdown">{blocks(marked.lexer(text))}</div>;
}

function blocks(tokens: readonly Token[]): ComponentChildren[] {
  return tokens.map((token, index) => block(token, index));
}

function block(token: Token, key: number): ComponentChildren {
  switch (token.type) {
    case 'paragraph':
      return <p key={key}>{inline((token as Tokens.Paragraph).tokens)}</p>;
    case 'heading': {
      const heading = token as Tokens.Heading;
      const Tag = `h${Math.min(6, heading.depth + 2)}` as 'h3';
      return <Tag key={key}>{inline(heading.tokens)}</Tag>;
    }
    case 'code':
      return (
        <pre key={key}>
          <code>{(token as Tokens.Code).text}</code>
        </pre>
      );
    case 'blockquote':
      return <blockquote key={key}>{blocks((token as Tokens.Blockquote).tokens)}</blockquote>;
    case 'list': {
      const list = token as Tokens.List;
      const items = list.items.map((item, index) => <li key={index}>{blocks(item.tokens)}</li>);
      return list.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>;
    }
    case 'table': {
      const table = token as Tokens.Table;
      return (
        <table key={key}>
          <thead>
            <tr>
              {table.header.map((cell, index) => (
                <th key={index}>{inline(cell.tokens)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, rowIndex) => (
              <tr key={rowIndex}>
                {row.map((cell, index) => (
                  <td key={index}>{inline(cell.tokens)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    }
    case 'hr':
      return <hr key={key} />;
    case 'space':
      return null;
    case 'text': {
      const text = token as Tokens.Text;
      return <p key={key}>{text.tokens === undefined ? text.text : inline(text.tokens)}</p>;
    }
    default:
      return <p key={key}>{'raw' in token ? String(token.raw) : ''}</p>;
  }
}

function inline(tokens: readonly Token[] | undefined): ComponentChildren[] {
  return (tokens ?? []).map((token, key) => {
    switch (token.type) {
      case 'text': {
        const text = token as Tokens.Text;
        return text.tokens === undefined ? text.text : <span key={key}>{inline(text.tokens)}</span>;
      }
      case 'strong':
        return <strong key={key}>{inline((token as Tokens.Strong).tokens)}</strong>;
      case 'em':
        return <em key={key}>{inline((token as Tokens.Em).tokens)}</em>;
      case 'del':
        return <del key={key}>{inline((token as Tokens.Del).tokens)}</del>;
      case 'codespan':
        return <code key={key}>{(token as Tokens.Codespan).text}</code>;
      case 'br':
        return <br key={key} />;
      case 'link': {
        const link = token as Tokens.Link;
        return safeHref(link.href) ? (
          <a key={key} href={link.href} rel="noopener noreferrer" target="_blank">
            {inline(link.tokens)}
          </a>
        ) : (
          <span key={key}>{inline(link.tokens)}</span>
        );
      }
      case 'image': {
        const image = token as Tokens.Image;
        return <span key={key}>[image: {image.text || image.href}]</span>;
      }
      case 'escape':
        return (token as Tokens.Escape).text;
      default:
        return 'raw' in token ? String(token.raw) : '';
    }
  });
}

function safeHref(href: string): boolean {
  return /^(https?:|mailto:)/i.test(href.trim());
}
